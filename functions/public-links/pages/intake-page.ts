/**
 * `GET|POST /f/{token}`: a deal's intake form, opened by its client. GET shows the empty form; POST validates what
 * the browser sent: with errors the form comes back (422) with every value kept and a message beside each bad field,
 * so nothing typed is lost; else the submission is stored (emitting `form.submission_received`) and a thank-you page
 * shows. The form works without JavaScript and needs none; its page carries the organization's branding.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { findPageLink } from '#db/page-links';
import { getTransactionHead } from '#db/transactions';
import { recordSubmission } from '#use-cases/intake';
import { findForm, validateSubmission, type FormDefinition, type FormField, type FormValues } from '#domain/intake-forms';
import type { Branding } from '#domain/branding';
import { pageBranding } from '#use-cases/org-settings';
import { formFields, html, notFound, page, type Html } from './html.ts';

function field(f: FormField, value: string, error: string | undefined): Html {
  const id = `f-${f.name}`;
  const described = [f.help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const attrs = html`id="${id}" name="${f.name}"${f.required ? html` required` : ''}${error ? html` class="invalid" aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
  const help = f.help ? html`<div class="help" id="${id}-help">${f.help}</div>` : '';
  const err = error ? html`<div class="error" id="${id}-error">${error}</div>` : '';
  const mark = f.required ? ' (required)' : '';
  if (f.type === 'checkbox') return html`<label class="check"><input type="checkbox" ${attrs} value="yes"${value ? html` checked` : ''}>${f.label}${mark}</label>${help}${err}`;
  let control: Html;
  if (f.type === 'textarea') control = html`<textarea ${attrs} maxlength="${f.maxLength}">${value}</textarea>`;
  else if (f.type === 'select')
    control = html`<select ${attrs}><option value="">Choose…</option>${(f.options ?? []).map((o) => html`<option${o === value ? html` selected` : ''}>${o}</option>`)}</select>`;
  else control = html`<input type="${f.type}" ${attrs} value="${value}" maxlength="${f.maxLength}">`;
  return html`<label for="${id}">${f.label}${mark}</label>${help}${control}${err}`;
}

function formPage(form: FormDefinition, address: string, values: FormValues, errors: Record<string, string>, branding: Branding | undefined): APIGatewayProxyStructuredResultV2 {
  const count = Object.keys(errors).length;
  const summary = count ? html`<p class="alert" role="alert">Please correct ${count} field${count === 1 ? '' : 's'} below; nothing you typed was lost.</p>` : '';
  return page(
    `${form.name} – ${address}`,
    html`<h1>${form.name}</h1><p>For <strong>${address}</strong>. ${form.description}</p>${summary}<form method="post" action="" novalidate>${form.fields.map((f) => field(f, values[f.name] ?? '', errors[f.name]))}<button type="submit">Send</button></form>`,
    branding,
    { status: count ? 422 : 200 },
  );
}

/** Serves the intake form of the link. */
export async function intakePage(event: APIGatewayProxyEventV2, token: string, now: Date): Promise<APIGatewayProxyStructuredResultV2> {
  const link = await findPageLink(token, 'form', now);
  const form = link && findForm(link.formId);
  const deal = link && form ? await getTransactionHead(link.orgId, link.transactionId).catch(() => undefined) : undefined;
  if (!link || !form || !deal) return notFound();
  const branding = await pageBranding(link.orgId);
  if (event.requestContext.http.method !== 'POST') return formPage(form, deal.address, {}, {}, branding);
  const { values, errors } = validateSubmission(form, formFields(event));
  if (Object.keys(errors).length) return formPage(form, deal.address, values, errors, branding);
  await recordSubmission(link.orgId, deal.id, form, values, now);
  return page(`Thank you – ${form.name}`, html`<h1>Thank you</h1><p class="notice" role="status">We received your ${form.name.toLowerCase()} for ${deal.address}. Your transaction team has been notified.</p><p>You can close this page.</p>`, branding);
}
