/** Pure rules of proposals (dates stated in messages, edited parameters, staleness), checklists and contingencies. */
import { describe, expect, it } from 'vitest';
import { derivedUuid, keyDatesStatedIn, parseEditedParameters, staleReasons } from '#domain/proposals';
import { filterChecklistTemplates, parseScope, selectItems, SYSTEM_CHECKLIST_TEMPLATES } from '#domain/checklists';
import { openContingencies } from '#domain/contingencies';

const at = new Date('2025-09-20T15:00:00Z'); // a Saturday

describe('keyDatesStatedIn', () => {
  it('reads a stated change per key date, nearest word wins, quoted lines ignored', () => {
    expect(keyDatesStatedIn('Closing moved to October 24, 2025. The option period now ends Sept 26.\n> closing was extended to Nov 1', at)).toEqual([
      { keyDateType: 'ClosingDate', dateValue: '2025-10-24', sentence: 'Closing moved to October 24, 2025.' },
      { keyDateType: 'InspectionDeadline', dateValue: '2025-09-26', sentence: 'The option period now ends Sept 26.' },
    ]);
  });

  it('counts relative dates forward from receipt and needs a change cue and a key-date word', () => {
    expect(keyDatesStatedIn('We pushed the appraisal to next Friday', at)).toEqual([{ keyDateType: 'AppraisalDeadline', dateValue: '2025-09-26', sentence: 'We pushed the appraisal to next Friday' }]);
    expect(keyDatesStatedIn('The appraisal is on Friday.', at)).toEqual([]);
    expect(keyDatesStatedIn('We moved the meeting to October 3.', at)).toEqual([]);
    expect(keyDatesStatedIn('Closing moved to sometime in October.', at)).toEqual([]);
  });
});

describe('parseEditedParameters', () => {
  it('accepts dates for proposed types only, each once', () => {
    expect(parseEditedParameters({ keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2025-10-20' }] }, ['ClosingDate'])).toEqual({ keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2025-10-20' }] });
    expect(parseEditedParameters({ keyDates: [{ keyDateType: 'ClosingDate', dateValue: '2025-02-30' }, { keyDateType: 'ClosingDate', dateValue: '2025-10-01T00:00:00Z' }], extra: 1 }, ['ClosingDate'])).toEqual({
      fields: {
        'parameters.extra': 'is not an editable parameter',
        'parameters.keyDates[0].dateValue': 'must be a calendar date YYYY-MM-DD',
        'parameters.keyDates[1].keyDateType': 'appears twice',
        'parameters.keyDates[1].dateValue': 'must be a calendar date YYYY-MM-DD',
      },
    });
    expect(parseEditedParameters('2025-10-20', ['ClosingDate'])).toHaveProperty('fields.parameters');
    expect(parseEditedParameters({ keyDates: [{ keyDateType: '__proto__', dateValue: '2025-10-20' }] }, ['ClosingDate'])).toHaveProperty(['fields', 'parameters.keyDates[0].keyDateType']);
  });
});

describe('staleReasons and derivedUuid', () => {
  it('names each changed key date the proposal touches; absent counts as a value', () => {
    const now = [{ keyDateType: 'ClosingDate', dateValue: '2025-10-20' }, { keyDateType: 'SurveyDeadline', dateValue: '2025-09-01' }];
    expect(staleReasons({ ClosingDate: '2025-10-03', SurveyDeadline: '2025-09-01' }, ['ClosingDate', 'SurveyDeadline'], now)).toEqual(['ClosingDate is now 2025-10-20 (was 2025-10-03 when proposed)']);
    expect(staleReasons({ FinancingDeadline: null }, ['FinancingDeadline'], now)).toEqual([]);
    expect(staleReasons({ FinancingDeadline: null }, ['FinancingDeadline'], [{ keyDateType: 'FinancingDeadline', dateValue: '2025-09-30' }])).toEqual(['FinancingDeadline is now 2025-09-30 (was absent when proposed)']);
  });

  it('derives a stable RFC 9562 uuid', () => {
    expect(derivedUuid('a')).toBe(derivedUuid('a'));
    expect(derivedUuid('a')).not.toBe(derivedUuid('b'));
    expect(derivedUuid('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('checklists', () => {
  const buyer = SYSTEM_CHECKLIST_TEMPLATES[0];
  it('filters, parses scope and selects items by contract facts', () => {
    expect(filterChecklistTemplates(SYSTEM_CHECKLIST_TEMPLATES, { transactionType: 'sale' }).map((t) => t.side)).toEqual(['Seller']);
    expect(parseScope(' ALL ')).toEqual({ sections: ['earnest_money', 'option_period', 'financing', 'title_survey', 'hoa', 'closing'] });
    expect(parseScope('hoa,hoa')).toEqual({ sections: ['hoa'] });
    expect(parseScope('hoa,pool')).toEqual({ error: expect.stringContaining("unknown section 'pool'") });
    const financedOnly = selectItems(buyer, ['financing'], { financingType: 'third_party', hoa: null }, new Set(['order-appraisal']));
    expect(financedOnly.items.map((i) => i.key)).toEqual(['loan-application', 'appraisal-received', 'financing-approval']);
    expect(selectItems(buyer, ['hoa'], null, new Set()).items).toHaveLength(2); // no contract applied: kept
    expect(selectItems(buyer, ['hoa'], { financingType: null, hoa: false }, new Set()).items).toEqual([]);
  });
});

describe('openContingencies', () => {
  const kd = (keyDateType: string, dateValue: string, completedAt: string | null = null) => ({ keyDateType, dateValue, completedAt });
  it('drops a satisfied contingency and states the rest', () => {
    const list = openContingencies({ financingType: 'third_party', hoa: false }, [kd('InspectionDeadline', '2025-09-05', '2025-09-05T20:00:00Z'), kd('SurveyDeadline', '2025-09-25')], '2025-09-20');
    expect(list.map((c) => [c.type, c.keyDateType, c.state, c.daysRemaining])).toEqual([
      ['title_survey', 'SurveyDeadline', 'open', 5],
      ['financing', null, 'no_deadline', null],
      ['appraisal', null, 'no_deadline', null],
    ]);
  });
});
