import { sampleRowsWanted } from '../../../server/quality/evaluate';

describe('the failing rows a rule keeps', () => {
  it("takes the company's whole number from 1 to 1,000, and 20 for anything else (it goes into the statement's LIMIT)", () => {
    expect(sampleRowsWanted(1)).toBe(1);
    expect(sampleRowsWanted(1000)).toBe(1000);
    expect(sampleRowsWanted(undefined)).toBe(20);
    expect(sampleRowsWanted(0)).toBe(20);
    expect(sampleRowsWanted(1001)).toBe(20);
    expect(sampleRowsWanted(2.5)).toBe(20);
    expect(sampleRowsWanted(Number.NaN)).toBe(20);
    expect(sampleRowsWanted('1; drop table users' as unknown as number)).toBe(20);
  });
});
