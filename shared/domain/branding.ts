/**
 * An organization's branding (designed here, issue 25): the display name, logo and accent colour that the pages
 * people outside the team open (intake form, client portal, disclosure page) and the OAuth consent page show.
 * Pure rules: what a valid accent and logo URL are, and the text colour that stays readable on the accent.
 *
 * The accent reaches the pages' one stylesheet as a CSS custom property; only `#rrggbb` survives `normalizeAccent`,
 * so no value a client sends can close the declaration and add CSS of its own.
 */

/** What the pages show; every field is resolved (defaults applied). */
export interface Branding {
  /** The brokerage name shown in the page header: the display name, else the workspace name. */
  displayName: string;
  /** An https URL of the logo image, or null for none. */
  logoUrl: string | null;
  /** `#rrggbb`, lower case. */
  accentColor: string;
}

/** The accent of an organization that has not chosen one (the pages' former button blue). */
export const DEFAULT_ACCENT = '#1f5fbf';

/** Longest display name, characters. */
export const DISPLAY_NAME_MAX = 80;
/** Longest logo URL, characters. */
export const LOGO_URL_MAX = 2048;

/** `#rgb` or `#rrggbb`, nothing else (no names, no `rgb()`, no alpha): the pattern the API checks. */
export const ACCENT_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * `#1F5FBF` → `#1f5fbf`, `#abc` → `#aabbcc`.
 * @returns the normalized colour, or undefined when `value` is not `#rgb`/`#rrggbb`
 */
export function normalizeAccent(value: string): string | undefined {
  if (!ACCENT_PATTERN.test(value)) return undefined;
  const hex = value.slice(1).toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/**
 * Checks a logo URL: absolute `https:`, no user name or password, at most `LOGO_URL_MAX` characters. The pages load
 * it with `img-src` naming only its origin, and send no Referer.
 * @returns the URL as the WHATWG parser writes it, or an error message
 */
export function checkLogoUrl(value: string): { url: string } | { error: string } {
  if (value.length > LOGO_URL_MAX) return { error: `must be at most ${LOGO_URL_MAX} characters` };
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return { error: 'must be an absolute https URL' };
  }
  if (u.protocol !== 'https:') return { error: 'must be an https URL' };
  if (u.username || u.password) return { error: 'must not carry a user name or password' };
  return { url: u.href };
}

/** WCAG 2.2 relative luminance of `#rrggbb` (0 black – 1 white; "relative luminance" definition). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.2 contrast ratio of two `#rrggbb` colours (1–21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The text colour on the accent (buttons, header band): white or near-black, whichever contrasts more. */
export function inkOn(accent: string): '#ffffff' | '#111827' {
  return contrastRatio(accent, '#ffffff') >= contrastRatio(accent, '#111827') ? '#ffffff' : '#111827';
}

/**
 * The branding the pages show from what is stored (each value re-checked, so an item written around the API
 * still renders safely).
 * @param stored the organization item's `name` and its optional branding attributes
 */
export function resolveBranding(stored: { name: string; displayName?: string | null; logoUrl?: string | null; accentColor?: string | null }): Branding {
  const logo = stored.logoUrl ? checkLogoUrl(stored.logoUrl) : undefined;
  return {
    displayName: stored.displayName?.trim() || stored.name,
    logoUrl: logo && 'url' in logo ? logo.url : null,
    accentColor: (stored.accentColor && normalizeAccent(stored.accentColor)) || DEFAULT_ACCENT,
  };
}
