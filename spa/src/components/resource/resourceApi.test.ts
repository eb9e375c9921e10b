import { describe, expect, it } from 'vitest';
import type { ApiRoute } from '@/lib/api/types';
import { createResourceApi, uniqueById } from './resourceApi';

interface Region {
  id: number;
  name: string;
}

describe('createResourceApi takes paths typed from the generated schema', () => {
  it('accepts the schema’s paths and refuses others at compile time (tsc -b checks this file)', () => {
    const ok = createResourceApi<Region>({ key: 'typedRegion', tag: 'TypedRegion', listPath: '/region', exportPath: '/region/export', itemPath: (id) => `/region/${id}` });
    expect(ok.config.listPath).toBe('/region');

    // @ts-expect-error: no such path in the API
    const typo: ApiRoute<'get'> = '/regoin';
    // @ts-expect-error: the path exists but has no POST
    const noPost: ApiRoute<'post'> = '/region/export';
    // @ts-expect-error: the base is not part of a client path
    const withBase: ApiRoute<'get'> = '/api/region';
    const filled: ApiRoute<'delete'> = `/region/${42}`;
    expect([typo, noPost, withBase, filled]).toHaveLength(4);
  });

  it('keeps the first row of each id', () => {
    expect(uniqueById([{ id: 1, n: 'a' }, { id: 2, n: 'b' }, { id: 1, n: 'c' }]).map((r) => r.n)).toEqual(['a', 'b']);
  });
});
