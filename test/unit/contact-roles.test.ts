/** Role matching (exact, with a hint when only case differs) and the link plan (idempotent repeats, one primary per role). */
import { describe, expect, it } from 'vitest';
import { builtInRoleLike, CONTACT_ROLES, matchRole } from '#domain/contact-roles';
import { contactLinkPlan } from '#domain/contact-links';
import { InvalidInput } from '#domain/errors';

const known = [...CONTACT_ROLES, 'Lender'];

describe('matchRole', () => {
  it('accepts a built-in or custom role spelled exactly', () => {
    expect(matchRole("Buyer's Agent", known)).toBe("Buyer's Agent");
    expect(matchRole('Lender', known)).toBe('Lender');
  });

  it('refuses another spelling, listing the known roles, with a hint when only case differs', () => {
    const err = (() => {
      try {
        matchRole('lender', known);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidInput);
    expect((err as InvalidInput).fields.role).toBe(
      "is not a known role (roles match exactly: did you mean 'Lender'?); known roles: Buyer, Seller, Buyer's Agent, Listing Agent, Escrow Officer / Title, Lender",
    );
    expect(() => matchRole('Plumber', known)).toThrow(InvalidInput);
    expect(() => matchRole(' Buyer', known)).toThrow(InvalidInput);
  });

  it('finds a built-in role whatever the case', () => {
    expect(builtInRoleLike('listing agent')).toBe('Listing Agent');
    expect(builtInRoleLike('Lender')).toBeUndefined();
  });
});

describe('contactLinkPlan', () => {
  const link = (contactId: string, role: string, isPrimary: boolean) => ({ contactId, role, isPrimary });

  it('makes a new link primary when it is the first of its role, not otherwise', () => {
    expect(contactLinkPlan([], { contactId: 'a', role: 'Buyer', isPrimary: null })).toEqual({ existing: undefined, isPrimary: true, demote: [], changed: true });
    const plan = contactLinkPlan([link('a', 'Buyer', true), link('b', 'Seller', false)], { contactId: 'c', role: 'Buyer', isPrimary: null });
    expect(plan).toEqual({ existing: undefined, isPrimary: false, demote: [], changed: true });
  });

  it('demotes the previous primary of the role only', () => {
    const a = link('a', 'Buyer', true);
    const s = link('s', 'Seller', true);
    expect(contactLinkPlan([a, s], { contactId: 'c', role: 'Buyer', isPrimary: true })).toMatchObject({ isPrimary: true, demote: [a], changed: true });
  });

  it('changes nothing when the same contact and role are linked again', () => {
    const a = link('a', 'Buyer', true);
    expect(contactLinkPlan([a], { contactId: 'a', role: 'Buyer', isPrimary: null })).toEqual({ existing: a, isPrimary: true, demote: [], changed: false });
    expect(contactLinkPlan([a], { contactId: 'a', role: 'Buyer', isPrimary: true }).changed).toBe(false);
  });

  it('changes an existing link when isPrimary differs, and a second role is a new link', () => {
    const a = link('a', 'Buyer', true);
    expect(contactLinkPlan([a], { contactId: 'a', role: 'Buyer', isPrimary: false })).toEqual({ existing: a, isPrimary: false, demote: [], changed: true });
    expect(contactLinkPlan([a], { contactId: 'a', role: 'Seller', isPrimary: null })).toMatchObject({ existing: undefined, isPrimary: true, changed: true });
  });
});
