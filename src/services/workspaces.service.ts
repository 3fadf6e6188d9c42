// Workspaces as the API shows them. Personal workspaces are made at sign-in (the better-auth
// adapter); local mode has one, made at start-up.
import type { WorkspaceRecord, WorkspacesRepository } from '../../db/repositories/workspaces.repository.ts';
import { ProblemError } from '../errors/problem.ts';

export class WorkspacesService {
  constructor(private readonly repo: WorkspacesRepository) {}

  /** The workspace behind authenticated credentials; 401 when it no longer exists. */
  async current(workspaceId: string) {
    const workspace = await this.repo.findById(workspaceId);
    if (!workspace) throw new ProblemError('unauthorized', { detail: 'The workspace of these credentials no longer exists.' });
    return { id: workspace.id, name: workspace.name, kind: workspace.kind, createdAt: new Date(workspace.createdAt).toISOString() };
  }

  /** Creates the workspace unless one with its id exists; returns the stored one. */
  ensure(workspace: WorkspaceRecord): Promise<WorkspaceRecord> {
    return this.repo.ensure(workspace);
  }
}
