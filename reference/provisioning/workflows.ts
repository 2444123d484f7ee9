// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/workflows.ts so that the mutation run can leave them out.
import type { RequestContext, RouteDef } from '../context.ts';
import { ok } from '../context.ts';
import { notFound } from '../errors.ts';
import { workflowDto } from '../routes/workflows.ts';

function getWorkflow(ctx: RequestContext) {
  const wf = ctx.env.findWorkflow(ctx.params.workflowId!);
  if (!wf) throw notFound(`Workflow "${ctx.params.workflowId}"`);
  return ok(200, workflowDto(ctx.app, wf));
}

function deleteWorkflow(ctx: RequestContext) {
  const id = ctx.params.workflowId!;
  let env = ctx.env;
  let wf = env.findWorkflow(id);
  if (!wf && ctx.app.has('cross-environment-delete')) {
    for (const other of ctx.app.org.environments) {
      const found = other.findWorkflow(id);
      if (found) {
        env = other;
        wf = found;
        break;
      }
    }
  }
  if (!wf) throw notFound(`Workflow "${id}"`);
  env.removeWorkflow(wf);
  return { status: 204 };
}

export function workflowProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'GET', path: '/v2/workflows/:workflowId', category: 'configuration', handler: getWorkflow },
    { method: 'DELETE', path: '/v2/workflows/:workflowId', category: 'configuration', handler: deleteWorkflow },
  ];
}
