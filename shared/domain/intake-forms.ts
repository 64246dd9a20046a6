/**
 * Intake forms (spec "Templates and forms": a form is a template with its field list; public submissions emit
 * `form.submission_received`). The service ships its own system forms, the same for every organization (like system
 * email templates); which apply to a deal follows its side. A client fills one in at the deal's form link
 * (`/f/{token}`); `validateSubmission` is the one check of what they send, used by the page and by tests.
 */
import { isEmailAddress } from '#domain/email-addresses';

export type FieldType = 'text' | 'email' | 'tel' | 'date' | 'textarea' | 'select' | 'checkbox';

/** One field of a form. `maxLength` counts characters. */
export interface FormField {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  maxLength: number;
  /** Choices of a `select`. */
  options?: readonly string[];
  help?: string;
}

/** A form definition. `purpose` is the `formPurpose` filter of `GET /form-submissions`. */
export interface FormDefinition {
  id: string;
  name: string;
  purpose: 'buyer_intake' | 'seller_intake' | 'client_contact';
  description: string;
  /** Deal sides it applies to. */
  sides: readonly ('Buyer' | 'Seller')[];
  fields: readonly FormField[];
  version: number;
}

const contactFields: FormField[] = [
  { name: 'fullName', label: 'Full name', type: 'text', required: true, maxLength: 200 },
  { name: 'email', label: 'Email', type: 'email', required: true, maxLength: 320 },
  { name: 'phone', label: 'Mobile phone', type: 'tel', required: false, maxLength: 32 },
];

/** The system forms, by id. Ids are fixed so links and submissions keep naming them across releases. */
export const SYSTEM_FORMS: readonly FormDefinition[] = [
  {
    id: '7d3c1a52-2f4e-4b8e-9a51-0c6d2f1b9e01',
    name: 'Buyer intake',
    purpose: 'buyer_intake',
    description: 'What we need from a buyer to run the transaction: contacts, lender, and how to reach you.',
    sides: ['Buyer'],
    version: 1,
    fields: [
      ...contactFields,
      { name: 'lenderName', label: 'Lender (company and loan officer)', type: 'text', required: false, maxLength: 200, help: 'Leave empty for a cash purchase.' },
      { name: 'financing', label: 'Financing', type: 'select', required: true, maxLength: 40, options: ['Conventional', 'FHA', 'VA', 'Cash', 'Other'] },
      { name: 'moveInDate', label: 'Desired move-in date', type: 'date', required: false, maxLength: 10 },
      { name: 'notes', label: 'Anything we should know', type: 'textarea', required: false, maxLength: 4000 },
    ],
  },
  {
    id: '7d3c1a52-2f4e-4b8e-9a51-0c6d2f1b9e02',
    name: 'Seller intake',
    purpose: 'seller_intake',
    description: 'What we need from a seller: contacts, mortgage payoff, HOA and access to the property.',
    sides: ['Seller'],
    version: 1,
    fields: [
      ...contactFields,
      { name: 'mortgageLender', label: 'Current mortgage lender', type: 'text', required: false, maxLength: 200 },
      { name: 'hasHoa', label: 'The property is in an HOA', type: 'checkbox', required: false, maxLength: 3 },
      { name: 'access', label: 'How inspectors and appraisers get in', type: 'textarea', required: true, maxLength: 2000 },
    ],
  },
  {
    id: '7d3c1a52-2f4e-4b8e-9a51-0c6d2f1b9e03',
    name: 'Communication preferences',
    purpose: 'client_contact',
    description: 'How and when you want updates about your transaction.',
    sides: ['Buyer', 'Seller'],
    version: 1,
    fields: [
      { name: 'fullName', label: 'Full name', type: 'text', required: true, maxLength: 200 },
      { name: 'preferredChannel', label: 'Preferred channel', type: 'select', required: true, maxLength: 10, options: ['Email', 'Text', 'Phone'] },
      { name: 'consentToText', label: 'You may text me about this transaction', type: 'checkbox', required: false, maxLength: 3 },
      { name: 'bestTime', label: 'Best time to reach me', type: 'text', required: false, maxLength: 200 },
    ],
  },
];

/** The system form `id`, or undefined. */
export const findForm = (id: string): FormDefinition | undefined => SYSTEM_FORMS.find((f) => f.id === id);

/** The forms a deal of `side` asks its client to fill in. */
export const formsForSide = (side: 'Buyer' | 'Seller'): FormDefinition[] => SYSTEM_FORMS.filter((f) => f.sides.includes(side));

/** A submission's values: each field's trimmed text (`'yes'`/`''` for a checkbox). */
export type FormValues = Record<string, string>;

/**
 * Checks what a client sent against `form`. Unknown names are dropped; every field gets a value (empty when absent).
 * @param raw the posted fields (URL-encoded form: the last value of a repeated name wins)
 * @returns the clean values and, per field name, the message to show beside it (empty when valid)
 */
export function validateSubmission(form: FormDefinition, raw: Record<string, string | undefined>): { values: FormValues; errors: Record<string, string> } {
  const values: FormValues = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const given = (raw[f.name] ?? '').replace(/\r\n/g, '\n').trim();
    const v = f.type === 'checkbox' ? (given ? 'yes' : '') : given;
    values[f.name] = v;
    if (!v) {
      if (f.required) errors[f.name] = f.type === 'checkbox' ? 'Please tick this box.' : 'Please fill this in.';
      continue;
    }
    if (v.length > f.maxLength) errors[f.name] = `Please keep this to ${f.maxLength} characters.`;
    else if (f.type === 'email' && !isEmailAddress(v)) errors[f.name] = 'Please enter an email address like name@example.com.';
    else if (f.type === 'tel' && !/^[+()\d][\d\s().-]{6,30}$/.test(v)) errors[f.name] = 'Please enter a phone number, digits only or like (512) 555-0143.';
    else if (f.type === 'date' && !isCalendarDate(v)) errors[f.name] = 'Please enter a date as YYYY-MM-DD.';
    else if (f.type === 'select' && !f.options?.includes(v)) errors[f.name] = `Please choose one of: ${f.options?.join(', ')}.`;
  }
  return { values, errors };
}

function isCalendarDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
