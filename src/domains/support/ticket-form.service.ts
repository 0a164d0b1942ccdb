import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { readForm, type FormPart } from '../../edge/multipart-form.js';
import { fail } from '../../errors.js';
import { checkAttachment } from './attachments.js';
import { openTicket, type OpenedTicket } from './service.js';

/**
 * help/ticketWithFile: a ticket from a form (subject, body, productType, serviceType, comma-separated
 * serialNumbers) and its one file, checked by content before anything is stored.
 */
export async function openTicketWithFile(
  deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'config'>,
  ctx: CallerContext,
  parts: AsyncIterable<FormPart>,
): Promise<OpenedTicket> {
  // The form's limits let it carry one file at most.
  const { fields, files } = await readForm(parts);
  const [file] = files;
  const checked = file ? await checkAttachment(file.fileName, file.bytes) : null;
  if (checked && 'refused' in checked) throw fail('INVALID_VALUE', checked.refused);
  const serialNumbers = (fields.get('serialNumbers') ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const text = (name: string) => fields.get(name) ?? null;
  return openTicket(
    deps,
    ctx,
    {
      kind: 'TICKET',
      subject: text('subject') ?? '',
      body: text('body') ?? '',
      serialNumbers,
      productType: text('productType'),
      serviceType: text('serviceType'),
    },
    checked,
  );
}
