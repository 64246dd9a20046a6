/**
 * What linking a contact to a deal with a role changes, given the deal's current links (pure; the use case reads
 * and writes). One link per contact and role; a role has at most one primary on a deal.
 */

/** The part of a link the plan looks at. */
export interface LinkLike {
  contactId: string;
  role: string;
  isPrimary: boolean;
}

/** The outcome of a link request. */
export interface LinkPlan<L extends LinkLike> {
  /** The contact's link with that role, when it exists already. */
  existing: L | undefined;
  /** Whether the link is (after the change) its role's primary. */
  isPrimary: boolean;
  /** Other contacts' links of the role that must stop being primary. */
  demote: L[];
  /** False when the request changes nothing (an idempotent repeat). */
  changed: boolean;
}

/**
 * Plans a link request.
 * @param links the deal's links
 * @param req.isPrimary true or false as asked; null keeps an existing link's flag, and makes a new link primary when
 *   no other contact has the role on the deal
 */
export function contactLinkPlan<L extends LinkLike>(links: readonly L[], req: { contactId: string; role: string; isPrimary: boolean | null }): LinkPlan<L> {
  const existing = links.find((l) => l.contactId === req.contactId && l.role === req.role);
  const others = links.filter((l) => l.role === req.role && l.contactId !== req.contactId);
  const isPrimary = req.isPrimary ?? existing?.isPrimary ?? others.length === 0;
  const demote = isPrimary ? others.filter((l) => l.isPrimary) : [];
  return { existing, isPrimary, demote, changed: !existing || existing.isPrimary !== isPrimary || demote.length > 0 };
}
