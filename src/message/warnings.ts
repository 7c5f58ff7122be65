// Findings that do not stop a send: fields the service ignores in this combination, a style the service
// may refuse, an unusually long lifetime. `--strict` turns them into errors.
import type { MessageIssue, PushMessage } from './types.js';
import { DESC_DISPLAY_CHARS, TITLE_DISPLAY_CHARS } from './display-limits.js';

/** 28 days: a lifetime beyond this is more likely a unit mistake than an intention. */
export const LONG_TTL_SECONDS = 28 * 24 * 3600;

export function messageWarnings(body: PushMessage): MessageIssue[] {
  const warnings: MessageIssue[] = [];
  const warn = (path: string, rule: string, message: string, fix?: string) => warnings.push({ path, rule, message, ...(fix ? { fix } : {}) });
  const { condition, notification } = body;

  if (condition.targeting !== undefined && condition.type !== 1) {
    warn('condition.targeting', 'no-effect', `has no effect with condition.type ${condition.type}`, 'remove it, or set condition.type to 1');
  }
  if (condition.client_ids !== undefined && condition.type !== 2) {
    warn('condition.client_ids', 'no-effect', `has no effect with condition.type ${condition.type}`, 'remove it, or set condition.type to 2');
  }

  if (notification !== undefined && body.type === 2) {
    warn('notification', 'no-effect', 'has no effect on a data message (type 2)', 'remove it, or send a notification (type 1)');
  }
  if (notification !== undefined) {
    const button = notification.notification_type === 3;
    if (button) {
      // docs/behaviour.md#service-codes: the push page lists button style, the API overview only system notifications.
      warn('notification.notification_type', 'button-style', 'button style (3) is listed on the push page but not in the API overview: the service may refuse it', 'if it answers 21005, use --style system');
    }
    const style = button ? 'button style (notification_type 3)' : 'system style (notification_type 1, the default)';
    const ignored = button ? (['small_icon', 'small_icon_color'] as const) : (['icon', 'button_text'] as const);
    for (const field of ignored) {
      if (notification[field] !== undefined) {
        warn(`notification.${field}`, 'no-effect', `has no effect with ${style}`, button ? 'use --style system, or remove it' : 'use --style button, or remove it');
      }
    }
  }

  // A notification's text is cut by the phone's notification shade (display-limits.ts says where and why):
  // the part past the cut is never read, so say so before it goes out to everyone.
  if (notification !== undefined && body.type === 1) {
    const limits = [
      ['title', TITLE_DISPLAY_CHARS, 'on its one line', 'put the rest in desc'],
      ['desc', DESC_DISPLAY_CHARS, 'even expanded', 'link to the rest with --open-url'],
    ] as const;
    for (const [field, limit, where, rest] of limits) {
      const text = notification[field];
      const length = text === undefined ? 0 : Array.from(text).length;
      if (length > limit) {
        warn(`notification.${field}`, 'display-length', `${length} characters: a phone's notification shade shows about ${limit} ${where} and cuts the rest`, `shorten it to ${limit} characters or fewer (${rest})`);
      }
    }
  }

  if (body.time_to_live > LONG_TTL_SECONDS) {
    warn('time_to_live', 'long-ttl', `${body.time_to_live} seconds is over 28 days`, 'check the unit: --ttl takes 90s, 15m, 6h, 2d or 1w');
  }
  return warnings;
}
