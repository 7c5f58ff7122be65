/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// A notification as Android's shade draws it (docs/behaviour.md#inbox): system style (small icon tinted
// `small_icon_color`, app name, title, desc, time) or button style (icon, title, desc, button). A title or
// text longer than the shade shows is cut as the shade cuts it, with the full text one click away.
import { cutForDisplay, DISPLAY_LIMITS } from '../../message/display-limits.js';
import { showInvisible } from './invisible-characters.js';
import { button, el, num } from './dom.js';

export const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));

const COLOUR = /^#[0-9a-f]{6}$/i;

function clickAction(notification: Record<string, unknown>): string {
  const type = str(notification.open_type);
  const content = str(notification.open_content);
  if (type === '2') return `opens ${content}`;
  if (type === '1' && content) return `opens activity ${content}`;
  return 'opens the app';
}

/** The field's text as the shade shows it; when cut, a button shows the rest (and hides it again). */
function shadeText(className: string, text: string, limit: number): HTMLElement {
  const { shown, cut, length } = cutForDisplay(text, limit);
  const node = el('div', className, shown);
  if (!cut) return node;
  node.classList.add('cut');
  let open = false;
  const toggle = button(`show all ${num(length)} characters`, () => {
    open = !open;
    node.replaceChildren(...el('span', '', open ? text : shown).childNodes, toggle);
    toggle.textContent = open ? `cut as the phone does (${num(limit)})` : `show all ${num(length)} characters`;
    node.classList.toggle('expanded', open);
  }, 'expand');
  node.append(toggle);
  return node;
}

/** The notification card; `time` is shown as the shade does (hours and minutes). */
export function phone(appName: string, time: Date, notification: Record<string, unknown>): HTMLElement {
  const buttonStyle = notification.notification_type === 3;
  const color = COLOUR.test(str(notification.small_icon_color)) ? str(notification.small_icon_color) : '#5f6368';
  const smallIcon = el('span', 'small-icon');
  smallIcon.style.background = color;
  smallIcon.title = showInvisible(`small_icon ${str(notification.small_icon) || '(default)'} tinted ${color}`);
  smallIcon.dataset.color = color;
  const clock = time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const head = el('div', 'n-head', smallIcon, el('span', 'n-app', appName), el('span', 'n-dot', '·'), el('span', 'n-time', clock));
  const text = el('div', 'n-text', shadeText('n-title', str(notification.title), DISPLAY_LIMITS.title), shadeText('n-desc', str(notification.desc), DISPLAY_LIMITS.desc));
  const card = el('div', `notification ${buttonStyle ? 'button-style' : 'system-style'}`, head);
  if (buttonStyle) {
    // The icon is a remote URL: the page fetches nothing from elsewhere, so it shows where the icon would be.
    const icon = el('div', 'n-icon', 'icon');
    icon.title = showInvisible(`icon ${str(notification.icon) || '(none)'}`);
    card.append(el('div', 'n-body', icon, text), el('div', 'n-actions', el('span', 'n-button', str(notification.button_text) || 'Open')));
  } else {
    card.append(text);
  }
  card.append(el('div', 'n-click', `on tap: ${clickAction(notification)}`));
  return card;
}

/** A data message's keys and values, and its size against the 2 KB the service accepts. */
export function dataTable(data: Record<string, unknown>): HTMLElement {
  const size = new TextEncoder().encode(JSON.stringify(data)).length;
  const rows = Object.entries(data).map(([key, value]) => el('tr', '', el('th', '', key), el('td', '', str(value))));
  return el('div', 'data', el('table', 'kv', ...rows), el('div', `size${size > 2048 ? ' over' : ''}`, `${num(size)} B of 2 KB`));
}
