// Normalization replaces what must differ between implementations (and nothing else); differences name the path.
import { describe, expect, it } from 'vitest';
import { ABSENT, differences, normalize, PLACEHOLDER } from '../../diff/normalize.ts';

describe('normalize', () => {
  it('replaces server-made ids, timestamps, slugs and transaction ids, also inside other strings', () => {
    const body = {
      _id: '6b0494b1c724327cad60f0d4',
      _environmentId: 'env-123456',
      workflowId: 'cft-x-wf-1',
      slug: 'cft-x-wf-1_wf_2110160082',
      createdAt: '2026-11-23T19:32:01.316Z',
      transactionId: '5f0c6d1e-8d36-4c8e-9a51-0f1b2c3d4e5f',
      activityFeedLink: 'https://dashboard.example/activity?transactionId=5f0c6d1e-8d36-4c8e-9a51-0f1b2c3d4e5f',
      message: 'Link 6b0494b1c724327cad60f0d4 updated',
      severity: 'none',
    };
    expect(normalize(body)).toEqual({
      _id: PLACEHOLDER.id,
      _environmentId: PLACEHOLDER.id,
      workflowId: 'cft-x-wf-1',
      slug: PLACEHOLDER.slug,
      createdAt: PLACEHOLDER.timestamp,
      transactionId: PLACEHOLDER.id,
      activityFeedLink: `https://dashboard.example/activity?transactionId=${PLACEHOLDER.id}`,
      message: `Link ${PLACEHOLDER.id} updated`,
      severity: 'none',
    });
  });

  it('masks API keys and hashes of environments, and named volatile places', () => {
    const envs = [{ _id: 'a1b2c3', identifier: 'f00dfeed1234', name: 'Development', apiKeys: [{ key: 'nk_dev_secret', _userId: 'u1', hash: 'abc' }] }];
    expect(normalize(envs, { volatile: ['/*/identifier'] })).toEqual([
      { _id: PLACEHOLDER.id, identifier: PLACEHOLDER.id, name: 'Development', apiKeys: [{ key: PLACEHOLDER.key, _userId: PLACEHOLDER.id, hash: PLACEHOLDER.key }] },
    ]);
  });

  it('leaves what the client chose and what the server decided alone: names, defaults, non-ISO timestamps', () => {
    const body = { name: 'Diff workflow', key: 'MY_VAR', active: false, updatedAt: '1763926321316', tags: ['diff'] };
    expect(normalize(body)).toEqual(body);
  });

  it('compares arrays named as sets in a canonical order, others in their order', () => {
    const a = normalize({ data: [{ id: 'b' }, { id: 'a' }], steps: ['x', 'y'] }, { unordered: ['/data'] });
    const b = normalize({ data: [{ id: 'a' }, { id: 'b' }], steps: ['y', 'x'] }, { unordered: ['/data'] });
    expect(differences('op', a, b).map((d) => d.path)).toEqual(['/steps/0', '/steps/1']);
  });
});

describe('differences', () => {
  it('names every differing path with both values; a missing field is (absent)', () => {
    const reference = { severity: 'none', active: false, agent: null, preferences: { all: { enabled: true } } };
    const candidate = { severity: 'high', active: false, preferences: { all: { enabled: 'yes' } }, extra: 1 };
    expect(differences('create-workflow', reference, candidate)).toEqual([
      { operation: 'create-workflow', path: '/severity', reference: 'none', candidate: 'high' },
      { operation: 'create-workflow', path: '/agent', reference: null, candidate: ABSENT },
      { operation: 'create-workflow', path: '/preferences/all/enabled', reference: true, candidate: 'yes' },
      { operation: 'create-workflow', path: '/extra', reference: ABSENT, candidate: 1 },
    ]);
  });

  it('two equal bodies have no difference', () => {
    expect(differences('op', { a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });
});
