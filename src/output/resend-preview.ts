// `pushctl resend --dry-run`, and a resend with nothing left: what would go, sending nothing.
import type { HeaderRecord } from '../journal/records.js';
import { messageTitle } from '../journal/run-state.js';
import { escapeControl } from './escape-control.js';
import { fit } from './runs.js';
import { counted } from '../counted.js';

export interface Left {
  clientIds?: string[];
  audience?: string;
  notSent: number;
  inDoubt: number;
  /** Whether the in-doubt ones are among those to send (--include-in-doubt). */
  inDoubtIncluded?: boolean;
  any: boolean;
}

const SHOWN = 5;

/** Where a resend would send: host and path, and the setting that chose it. */
export interface PreviewDestination {
  baseUrl: string;
  source: string;
}

export function resendPreviewDocument(header: HeaderRecord, left: Left, dryRun: boolean, destination: PreviewDestination | undefined) {
  return {
    ok: true,
    exit_code: 0,
    run_id: header.run_id,
    ...(destination ? { destination: { base_url: destination.baseUrl, app_id: header.app_id, source: destination.source } } : {}),
    would_send: left.any,
    dry_run: dryRun,
    ...(left.audience ? { audience: left.audience, batches: left.any ? 1 : 0 } : { recipients: left.clientIds?.length ?? 0 }),
    not_sent: left.notSent,
    in_doubt: left.inDoubt,
    ...(dryRun && left.clientIds ? { client_ids: left.clientIds } : {}),
    message: header.message,
  };
}

export function formatResendPreview(header: HeaderRecord, left: Left, dryRun: boolean, destination: PreviewDestination | undefined): string {
  // As runs show prints it: clipped, escapes shown (a journal's title may be a million characters).
  const title = fit(messageTitle(header.message), 200);
  const inDoubt = counted(left.inDoubt, left.audience ? 'batch' : 'recipient');
  // Included, they are in the count above: the same words as the resend itself, never the advice to add the flag given.
  const doubt = left.inDoubt === 0 ? '' : left.inDoubtIncluded && left.any
    ? `${inDoubt} in doubt, included by --include-in-doubt (the service may already have delivered to them)\n`
    : `${inDoubt} in doubt (the service may already have delivered): add --include-in-doubt to send to them, at the risk of sending twice\n`;
  if (!left.any) return `nothing left to send for run ${escapeControl(header.run_id)}${title ? ` (${title})` : ''}\n${doubt}`;
  const what = left.clientIds ? `${counted(left.clientIds.length, 'recipient')}: ${left.clientIds.slice(0, SHOWN).map(escapeControl).join(', ')}${left.clientIds.length > SHOWN ? `, … (--json lists all)` : ''}` : left.audience;
  const where = !destination ? '' : `${dryRun ? 'would send to' : 'sending to'} ${escapeControl(destination.baseUrl)} (${escapeControl(destination.source)}), app ${escapeControl(header.app_id)}\n`;
  return `${dryRun ? 'would resend' : 'resend'} run ${escapeControl(header.run_id)}${title ? ` (${title})` : ''} to ${what}\n${where}${doubt}`;
}
