import { describe, expect, it } from 'vitest';
import { editDistance, readDate, repairDateText, repairMonth } from '#domain/extraction/dates';
import { isStampText, isVerificationId, stampEdits } from '#domain/extraction/stamps';
import { plausibleAddress, plausibleCompany, plausibleMoney, plausibleNames } from '#domain/extraction/plausible';

describe('readDate (chrono-node after repairs)', () => {
  it.each([
    ['07/20/2025', '2025-07-20'],
    ['20th day of July, 20 25', '2025-07-20'],
    ['29day of Auqust , 20 25', '2025-08-29'],
    ['August 29, 2025, 20', '2025-08-29'],
    ['09 / 30 / 2025', '2025-09-30'],
    ['09 30 2025', '2025-09-30'],
    ['0ctober 3, 2025', '2025-10-03'],
    ['O7/2O/2025', '2025-07-20'],
  ])('%s → %s', (text, iso) => {
    expect(readDate(text)).toMatchObject({ value: iso });
  });

  it('refuses what is not one dated day, saying why', () => {
    expect(readDate('July 20')).toEqual({ value: null, reason: 'no year' });
    expect(readDate('July 4, 2025 and 07/05/2025')).toEqual({ value: null, reason: 'several dates' });
    expect(readDate('1.')).toEqual({ value: null, reason: 'no date' });
    expect(readDate('03/04/1850')).toEqual({ value: null, reason: 'implausible year' });
  });

  it('repairs month names within one edit, same first letter, 4+ letters only', () => {
    expect(repairMonth('Auqust')).toBe('August');
    expect(repairMonth('Jnly')).toBe('July');
    expect(repairMonth('Mav')).toBeNull();
    expect(repairMonth('Marsh')).toBe('March');
    expect(repairMonth('Lot')).toBeNull();
    expect(repairDateText('the 4th day of Jnne, 20 26')).toBe('the June 4, 2026');
    expect(editDistance('auqust', 'august')).toBe(1);
  });
});

describe('e-signature stamps', () => {
  const tok = (text: string, left: number, top: number, width = 0.03, height = 0.0085) => ({ text, box: { left, top, width, height } });

  it('drops a dotloop stamp (caption, date, time, zone, id) and keeps the value beside it', () => {
    const tokens = [
      tok('08/29/2025', 0.26, 0.35, 0.07, 0.0127),
      tok('dotloop', 0.49, 0.349),
      tok('verified', 0.52, 0.349),
      tok('07/21/25', 0.49, 0.357),
      tok('10:14', 0.53, 0.357),
      tok('AM', 0.56, 0.357, 0.01),
      tok('CDT', 0.575, 0.357, 0.015),
      tok('XJ3K-2LQP-9RTA-77BC', 0.49, 0.365, 0.1),
    ];
    const edits = stampEdits(tokens);
    expect([...edits.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([...edits.values()].every((t) => t === '')).toBe(true);
  });

  it('cuts a stamp id glued to a printed word or to a date, and drops glued stamp pieces', () => {
    const edits = stampEdits([tok('laterXJ3K-2LQP-9RTA-77BC', 0.7, 0.75, 0.17), tok('07/23/2025H3JD-7WQK-CX2M-9PLA', 0.7, 0.4, 0.18), tok('CDTXJ3K-2LQP-9RTA-77BC', 0.5, 0.3, 0.1)]);
    expect(edits.get(0)).toBe('later');
    expect(edits.get(1)).toBe('07/23/2025');
    expect(edits.get(2)).toBe('');
    expect(isStampText('verified07/21/25')).toBe(true);
    expect(isStampText('August')).toBe(false);
  });

  it('drops a date only when a clock time follows it (a signing time), and DocuSign envelope captions', () => {
    const edits = stampEdits([
      tok('7/19/2025', 0.1, 0.16),
      tok('|', 0.135, 0.16, 0.003),
      tok('2:05', 0.143, 0.16, 0.02),
      tok('PM', 0.166, 0.16, 0.012),
      tok('07/20/2025', 0.1, 0.3),
      tok('DocuSign', 0.05, 0.01, 0.05),
      tok('Envelope', 0.105, 0.01, 0.05),
      tok('ID:', 0.16, 0.01, 0.015),
      tok('5C1E8A3B-2F4D-4B6A-9E7C-0D3F2A1B4C5D', 0.18, 0.01, 0.2),
    ]);
    expect([...edits.keys()].sort((a, b) => a - b)).toEqual([0, 2, 3, 5, 6, 7, 8]);
    expect(isVerificationId('H3JD-7WQK-CX2M-9PLA')).toBe(true);
    expect(isVerificationId('127-R')).toBe(false);
    expect(isVerificationId('512-555-0110')).toBe(false);
  });
});

describe('plausibility checks (unrecognized forms)', () => {
  it('names: real names and entities pass; prose, quotes and single words do not', () => {
    expect(plausibleNames('Jordan P. Alvarez and Casey M. Alvarez')).toEqual(['Jordan P. Alvarez', 'Casey M. Alvarez']);
    expect(plausibleNames('Pine Ridge Holdings LLC')).toEqual(['Pine Ridge Holdings LLC']);
    expect(plausibleNames('"')).toBeNull();
    expect(plausibleNames('Buyer acknowledges Listing Firm')).toBeNull();
    expect(plausibleNames('Seller')).toBeNull();
  });

  it('money: a dollar figure in range, never a paragraph number; OCR "S" for "$"', () => {
    expect(plausibleMoney('S529,900.00', 10_000, 1e8)).toBe(529900);
    expect(plausibleMoney('1. The Purchase Price shall be paid', 10_000, 1e8)).toBeNull();
    expect(plausibleMoney('$1', 10_000, 1e8)).toBeNull();
    expect(plausibleMoney('$ 7,500.00 to be held', 100, 1e7)).toBe(7500);
  });

  it('companies and addresses', () => {
    expect(plausibleCompany('Heartland Escrow Company')).toBe('Heartland Escrow Company');
    expect(plausibleCompany('Buyer shall deposit with title')).toBeNull();
    expect(plausibleAddress('918 Heron Point Rd, Traverse City, MI 49684')).toEqual({ street: '918 Heron Point Rd', city: 'Traverse City', state: 'MI', zip: '49684' });
    expect(plausibleAddress('known as the Property')).toBeNull();
  });
});
