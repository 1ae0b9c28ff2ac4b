import { describe, expect, it } from 'vitest';
import { relaunchBody, type Project } from './foundry';

describe('relaunchBody', () => {
  it('launches a failed project again with its name and options', () => {
    const p = {
      name: 'club-site',
      options: { description: 'The site', project_type: 'fastapi', database: 'postgresql', redis: true, s3: false, team_slug: 'web', private: true },
    } as unknown as Project;
    expect(relaunchBody(p)).toEqual({ name: 'club-site', description: 'The site', project_type: 'fastapi', database: 'postgresql', redis: true, s3: false, team_slug: 'web', private: true });
  });
});
