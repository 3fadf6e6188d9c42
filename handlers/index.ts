// Binds every operationId of openapi.yaml to its handler file. The `satisfies` clause fails the
// type check when an operation lacks a handler; createOperationsRouter fails the startup when the
// contract and this table disagree either way.
import type { Handler, OperationId } from '../src/http/handler.types.ts';
import { notImplemented } from '../src/http/not-implemented.ts';
import createKey from './createKey.ts';
import generate from './generate.ts';
import getApiReference from './getApiReference.ts';
import getAuthConfig from './getAuthConfig.ts';
import getGenerator from './getGenerator.ts';
import getHealth from './getHealth.ts';
import getMe from './getMe.ts';
import getOpenApiDocument from './getOpenApiDocument.ts';
import getReady from './getReady.ts';
import listGenerators from './listGenerators.ts';
import listKeys from './listKeys.ts';
import renderBatch from './renderBatch.ts';
import renderRecipe from './renderRecipe.ts';
import revokeKey from './revokeKey.ts';

export const handlers = {
  getHealth,
  getReady,
  getOpenApiDocument,
  getApiReference,
  listGenerators,
  getGenerator,
  generate,
  renderRecipe,
  renderBatch,
  createJob: notImplemented('createJob'),
  listJobs: notImplemented('listJobs'),
  getJob: notImplemented('getJob'),
  cancelJob: notImplemented('cancelJob'),
  getJobResult: notImplemented('getJobResult'),
  streamJobEvents: notImplemented('streamJobEvents'),
  createKey,
  listKeys,
  revokeKey,
  getAuthConfig,
  getMe,
  getWebhookSecret: notImplemented('getWebhookSecret'),
  rotateWebhookSecret: notImplemented('rotateWebhookSecret'),
  createPreset: notImplemented('createPreset'),
  listPresets: notImplemented('listPresets'),
  getPreset: notImplemented('getPreset'),
  updatePreset: notImplemented('updatePreset'),
  deletePreset: notImplemented('deletePreset'),
  renderPreset: notImplemented('renderPreset'),
  getUsage: notImplemented('getUsage'),
  getPricing: notImplemented('getPricing'),
  getBilling: notImplemented('getBilling'),
  createCheckout: notImplemented('createCheckout'),
  handlePaymentWebhook: notImplemented('handlePaymentWebhook'),
} satisfies { [Id in OperationId]: Handler<Id> };
