// Rendering helpers: every synced value goes in as text (textContent), never as HTML.
import { t } from './i18n.js';
import { parseTime } from '../core/time.js';

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) node.append(child);
  return node;
}

/** `08:05` of an entry time, on the wall clock where it was logged. */
export function clock(at) {
  const parsed = parseTime(at);
  if (!parsed) return at;
  const shifted = new Date(parsed.ms + parsed.offset * 60_000);
  return `${String(shifted.getUTCHours()).padStart(2, '0')}:${String(shifted.getUTCMinutes()).padStart(2, '0')}`;
}

/** `2026-12-02` of an entry time, on the wall clock where it was logged. */
export function day(at) {
  return at.slice(0, 10);
}

/** `1h40m`, `25m`, `0m`, as `lifelog due --short` writes them. */
export function span(seconds) {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours}h${String(minutes % 60).padStart(2, '0')}m` : `${minutes}m`;
}

/** One entry as a list item: its activity, time and note, and its buttons. */
export function entryItem(entry, { onEdit, onDelete } = {}) {
  const item = el('li', { 'data-id': entry.id },
    el('span', { class: 'activity', text: entry.activity }),
    el('time', { datetime: entry.at, text: clock(entry.at) }),
    el('span', { class: 'note', text: entry.note ?? '' }));
  if (entry.duration !== null && entry.duration !== undefined) {
    item.insertBefore(el('span', { class: 'duration', text: span(entry.duration) }), item.lastChild);
  }
  if (entry.quantity !== null && entry.quantity !== undefined) {
    const text = entry.unit ? `${entry.quantity} ${entry.unit}` : String(entry.quantity);
    item.insertBefore(el('span', { class: 'quantity', text }), item.lastChild);
  }
  if (onEdit) item.append(el('button', { type: 'button', 'aria-label': `${t('edit')} ${entry.activity} ${clock(entry.at)}`, text: t('edit') }));
  if (onDelete) item.append(el('button', { type: 'button', 'aria-label': `${t('delete')} ${entry.activity} ${clock(entry.at)}`, text: t('delete') }));
  const buttons = item.querySelectorAll('button');
  if (onEdit) buttons[0].addEventListener('click', () => onEdit(entry, item));
  if (onDelete) buttons[buttons.length - 1].addEventListener('click', () => onDelete(entry));
  return item;
}
