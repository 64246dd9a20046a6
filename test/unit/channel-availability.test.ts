/** Per-channel availability of a participant: each unavailable channel says why. */
import { describe, expect, it } from 'vitest';
import { emailAvailability, smsAvailability, textableNumbers, type ConsentState } from '#domain/channel-availability';

const consent: ConsentState = { suppressedEmails: new Set(['bounced@example.test']), optedOutPhones: new Set(['+15125550111']) };

describe('emailAvailability', () => {
  it('is available for an address that is not suppressed', () => {
    expect(emailAvailability('ana@example.test', consent)).toEqual({ address: 'ana@example.test', available: true, reason: null });
  });
  it('says no_address without one, and suppressed for a suppressed one whatever its case', () => {
    expect(emailAvailability(null, consent)).toEqual({ address: null, available: false, reason: 'no_address' });
    expect(emailAvailability('Bounced@Example.test', consent)).toEqual({ address: 'Bounced@Example.test', available: false, reason: 'suppressed' });
  });
});

describe('smsAvailability', () => {
  it('is available for a mobile-capable number, given in E.164', async () => {
    expect(await smsAvailability('(512) 555-0147', consent)).toEqual({ address: '+15125550147', available: true, reason: null });
  });
  it('says no_address, not_textable (toll-free, landline) and opted_out', async () => {
    expect((await smsAvailability(null, consent)).reason).toBe('no_address');
    expect(await smsAvailability('+18005550199', consent)).toEqual({ address: '+18005550199', available: false, reason: 'not_textable' });
    expect((await smsAvailability('+442079460958', consent)).reason).toBe('not_textable');
    expect(await smsAvailability('512-555-0111', consent)).toEqual({ address: '+15125550111', available: false, reason: 'opted_out' });
  });
});

describe('textableNumbers', () => {
  it('keeps the textable numbers once each, in E.164', async () => {
    expect(await textableNumbers(['512-555-0147', '+15125550147', null, '+18005550199'])).toEqual(['+15125550147']);
  });
});
