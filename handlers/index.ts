// Binds every operationId of openapi.yaml to its handler file. The `satisfies` clause fails the
// type check when an operation lacks a handler; createOperationsRouter fails the startup when the
// contract and this table disagree either way.
import type { Handler, OperationId } from '../src/http/handler.types.ts';
import createJob from './createJob.ts';
import previewTemplate from './previewTemplate.ts';
import listTemplateStarters from './listTemplateStarters.ts';
import createQuote from './createQuote.ts';
import listJobs from './listJobs.ts';
import getJob from './getJob.ts';
import cancelJob from './cancelJob.ts';
import getJobResult from './getJobResult.ts';
import getJobThumbnail from './getJobThumbnail.ts';
import streamJobEvents from './streamJobEvents.ts';
import createKey from './createKey.ts';
import createPreset from './createPreset.ts';
import deletePreset from './deletePreset.ts';
import generate from './generate.ts';
import getApiReference from './getApiReference.ts';
import getAuthConfig from './getAuthConfig.ts';
import getGenerator from './getGenerator.ts';
import getHealth from './getHealth.ts';
import getMe from './getMe.ts';
import createCheckout from './createCheckout.ts';
import getBilling from './getBilling.ts';
import handlePaymentWebhook from './handlePaymentWebhook.ts';
import getPricing from './getPricing.ts';
import getUsage from './getUsage.ts';
import getBudget from './getBudget.ts';
import updateBudget from './updateBudget.ts';
import getWebhookSecret from './getWebhookSecret.ts';
import rotateWebhookSecret from './rotateWebhookSecret.ts';
import getOpenApiDocument from './getOpenApiDocument.ts';
import getPreset from './getPreset.ts';
import getReady from './getReady.ts';
import listGenerators from './listGenerators.ts';
import listKeys from './listKeys.ts';
import listPresets from './listPresets.ts';
import renderBatch from './renderBatch.ts';
import renderPreset from './renderPreset.ts';
import renderRecipe from './renderRecipe.ts';
import revokeKey from './revokeKey.ts';
import updatePreset from './updatePreset.ts';
import createTemplate from './createTemplate.ts';
import listTemplates from './listTemplates.ts';
import getTemplate from './getTemplate.ts';
import updateTemplate from './updateTemplate.ts';
import deleteTemplate from './deleteTemplate.ts';
import getTemplateVersion from './getTemplateVersion.ts';
import createUrlSigningKey from './createUrlSigningKey.ts';
import listUrlSigningKeys from './listUrlSigningKeys.ts';
import revokeUrlSigningKey from './revokeUrlSigningKey.ts';
import signRenderUrl from './signRenderUrl.ts';
import createSigningBase from './createSigningBase.ts';
import listSigningBases from './listSigningBases.ts';
import deleteSigningBase from './deleteSigningBase.ts';
import renderSigningBase from './renderSigningBase.ts';
import createAsset from './createAsset.ts';
import listAssets from './listAssets.ts';
import getAsset from './getAsset.ts';
import deleteAsset from './deleteAsset.ts';
import mcpMessage from './mcpMessage.ts';

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
  createQuote,
  createJob,
  listJobs,
  getJob,
  cancelJob,
  getJobResult,
  getJobThumbnail,
  streamJobEvents,
  createKey,
  listKeys,
  revokeKey,
  createUrlSigningKey,
  listUrlSigningKeys,
  revokeUrlSigningKey,
  signRenderUrl,
  createSigningBase,
  listSigningBases,
  deleteSigningBase,
  renderSigningBase,
  mcpMessage,
  getAuthConfig,
  getMe,
  getWebhookSecret,
  rotateWebhookSecret,
  createPreset,
  listPresets,
  getPreset,
  updatePreset,
  deletePreset,
  renderPreset,
  createTemplate,
  listTemplates,
  getTemplate,
  updateTemplate,
  deleteTemplate,
  getTemplateVersion,
  previewTemplate,
  listTemplateStarters,
  createAsset,
  listAssets,
  getAsset,
  deleteAsset,
  getUsage,
  getBudget,
  updateBudget,
  getPricing,
  getBilling,
  createCheckout,
  handlePaymentWebhook,
} satisfies { [Id in OperationId]: Handler<Id> };
