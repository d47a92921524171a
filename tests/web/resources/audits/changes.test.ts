import { changedFields } from '../../../../resources/audits/ChangesDiff';

describe('the changes of an audit entry', () => {
  it('an update: one row per changed field, old and new; a field reading the same on both sides is left out', () => {
    expect(
      changedFields({ before: { name: 'Editors', isActive: true, tags: ['a'] }, after: { name: 'Editor', isActive: false, tags: ['a'] } }),
    ).toEqual([
      { field: 'name', before: 'Editors', after: 'Editor', hasBefore: true, hasAfter: true },
      { field: 'isActive', before: true, after: false, hasBefore: true, hasAfter: true },
    ]);
  });

  it('a creation has new values only, a deletion old ones only; a field set to nothing still counts', () => {
    expect(changedFields({ after: { name: 'Ops', description: null } })).toEqual([
      { field: 'name', before: undefined, after: 'Ops', hasBefore: false, hasAfter: true },
      { field: 'description', before: undefined, after: null, hasBefore: false, hasAfter: true },
    ]);
    expect(changedFields({ before: { name: 'Ops' } })).toEqual([
      { field: 'name', before: 'Ops', after: undefined, hasBefore: true, hasAfter: false },
    ]);
    expect(changedFields({ before: { phone: '+1 555' }, after: { phone: null } })).toEqual([
      { field: 'phone', before: '+1 555', after: null, hasBefore: true, hasAfter: true },
    ]);
  });

  it('an entry of another shape (a session ended) is what it records; nothing or a non-object is no row', () => {
    expect(changedFields({ userId: 'u-1', endReason: 'ended_by_admin' })).toEqual([
      { field: 'userId', before: undefined, after: 'u-1', hasBefore: false, hasAfter: true },
      { field: 'endReason', before: undefined, after: 'ended_by_admin', hasBefore: false, hasAfter: true },
    ]);
    expect(changedFields(null)).toEqual([]);
    expect(changedFields('text')).toEqual([]);
    expect(changedFields([1, 2])).toEqual([]);
  });
});
