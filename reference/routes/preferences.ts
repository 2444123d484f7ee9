// PATCH /v2/subscribers/{subscriberId}/preferences: global and per-workflow channel preferences (the GET that reads
// them back is provisioning-only: provisioning/preferences.ts).
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, notFound } from '../errors.ts';
import { validateSchedule } from '../schedule.ts';
import { CHANNELS, type Channel, type ChannelFlags, type EnvironmentState, type Subscriber, type Workflow, type WorkflowPreference } from '../store.ts';
import { optContext, optObject, optString } from '../validate.ts';
import { allChannels } from './subscribers.ts';
import { stampNow } from './workflows.ts';

function workflowEntry(app: App, s: Subscriber, wf: Workflow): Record<string, unknown> {
  const pref = s.workflowPrefs.get(wf._id);
  const channels: ChannelFlags = { ...allChannels(true), ...(pref?.channels ?? {}) };
  return {
    enabled: true,
    channels,
    overrides: app.has('pref-no-overrides') ? [] : (pref?.overrides ?? []),
    workflow: { slug: wf.slug, identifier: wf.workflowId, name: wf.name, updatedAt: wf.updatedAt },
    updatedAt: pref?.updatedAt ?? wf.updatedAt,
  };
}

/** SubscriberPreferencesDto: global block plus one entry per workflow of the environment. */
export function preferencesDto(app: App, env: EnvironmentState, s: Subscriber): Record<string, unknown> {
  const global: Record<string, unknown> = { enabled: s.globalEnabled, channels: { ...s.globalChannels } };
  if (s.schedule && !app.has('schedule-dropped')) global.schedule = s.schedule;
  const workflows: Record<string, unknown>[] = [];
  for (const wf of env.workflows.values()) workflows.push(workflowEntry(app, s, wf));
  return { global, workflows };
}

function patchPreferences(ctx: RequestContext) {
  const { app, env } = ctx;
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const changes: Partial<ChannelFlags> = {};
  const channels = optObject(errs, b, 'channels');
  if (channels) {
    for (const [k, v] of Object.entries(channels)) {
      if (!(CHANNELS as readonly string[]).includes(k)) errs.add(`channels.${k}`, `${k} is not a channel (${CHANNELS.join(', ')})`, v);
      else if (typeof v === 'boolean') {
        // why: fault `pref-channels-email-sms-only` answers 200 but applies only the two channels it knows
        if (!app.has('pref-channels-email-sms-only') || k === 'email' || k === 'sms') changes[k as Channel] = v;
      }
      else if (app.has('pref-non-boolean-accepted')) changes[k as Channel] = Boolean(v);
      else errs.add(`channels.${k}`, `${k} must be a boolean value`, v);
    }
  }
  const workflowId = optString(errs, b, 'workflowId');
  const context = optContext(errs, b, 'context');
  if (context && app.has('pref-context-rejected')) errs.add('context', 'property context should not exist', context);
  if (context && app.has('pref-context-empty-value-rejected')) for (const [k, v] of Object.entries(context)) if (v === '') errs.add(`context.${k}`, `context.${k} should not be empty`, v);
  let schedule;
  const scheduleErrs = new FieldErrors();
  if (b.schedule !== undefined) schedule = validateSchedule(scheduleErrs, b.schedule, app);
  for (const [f, e] of Object.entries(scheduleErrs.errors)) for (const m of e.messages) errs.add(f, m, e.value);
  if (errs.any && !scheduleErrs.any) errs.throwIfAny();

  const s = env.subscribers.get(ctx.params.subscriberId!);
  // PREF-05: an unknown subscriber gets 404
  if (!s) throw notFound(`Subscriber "${ctx.params.subscriberId}"`);
  if (app.has('context-value-object-crash') && !errs.any && Object.values(context ?? {}).some((v) => typeof v !== 'string')) throw new Error('context value is not a string');
  let wf: Workflow | undefined;
  if (workflowId !== undefined) {
    wf = app.has('pref-slug-not-resolved') ? env.workflowsByKey.get(workflowId) : env.findWorkflow(workflowId);
    if (wf && app.has('pref-slug-not-resolved') && wf.workflowId !== workflowId) wf = undefined;
    // PREF-05: an unknown workflowId gets 404
    if (!wf) throw notFound(`Workflow "${workflowId}"`);
  }
  // why: validate fully before mutating; the partial-apply fault breaks exactly that
  if (errs.any) {
    if (app.has('pref-invalid-partially-applied')) {
      if (wf) applyWorkflowChanges(app, s, wf, changes, stampNow(app));
      else Object.assign(s.globalChannels, changes);
    }
    errs.throwIfAny();
  }

  const now = stampNow(app);
  if (wf) {
    const targets = app.has('pref-workflow-update-leaks') ? [...env.workflows.values()] : [wf];
    for (const t of targets) applyWorkflowChanges(app, s, t, changes, now);
  } else if (!app.has('pref-global-ignored')) {
    Object.assign(s.globalChannels, changes);
  }
  if (schedule) s.schedule = schedule;
  else if (app.has('schedule-cleared-by-update')) delete s.schedule;
  s.updatedAt = now;
  return ok(200, preferencesDto(app, env, s));
}

function applyWorkflowChanges(app: App, s: Subscriber, wf: Workflow, changes: Partial<ChannelFlags>, now: string): void {
  const pref: WorkflowPreference = s.workflowPrefs.get(wf._id) ?? { channels: {}, overrides: [], updatedAt: now };
  for (const [ch, v] of Object.entries(changes) as [Channel, boolean][]) {
    pref.channels[ch] = v;
    // fault `later-override-dropped`: only the first channel a subscriber changes is listed
    if (!pref.overrides.some((o) => o.channel === ch) && !(app.has('later-override-dropped') && pref.overrides.length > 0)) pref.overrides.push({ channel: ch, source: (app.has('override-source-renamed') ? 'user' : 'subscriber') as 'subscriber' }); // the cast: only the fault writes another value
  }
  pref.updatedAt = now;
  s.workflowPrefs.set(wf._id, pref);
}

export function preferenceRoutes(): RouteDef[] {
  return [
    { method: 'PATCH', path: '/v2/subscribers/:subscriberId/preferences', category: 'configuration', handler: patchPreferences },
  ];
}
