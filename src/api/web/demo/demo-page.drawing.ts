/**
 * What the parts of the demo page draw with: elements by id, table cells, names, numbers and a
 * bar chart as inline SVG (no library, nothing from a CDN).
 */
import type { User } from '@quiz-results/client';

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the demo page has no #${id}`);
  return element as T;
}

export function textCell(row: HTMLTableRowElement, text: string, className?: string): HTMLElement {
  const cell = row.insertCell();
  cell.textContent = text;
  if (className) cell.className = className;
  return cell;
}

export function userName(user: User | undefined, id: string): string {
  if (user?.firstName !== undefined || user?.lastName !== undefined) {
    return `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim();
  }
  return `User ${id}`;
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : String(Math.round(value * 100) / 100);
}

/** hh:mm:ss of the browser's clock. */
export function clockTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
}

const SVG = 'http://www.w3.org/2000/svg';

export function svgElement(name: string, attributes: Record<string, string | number>): SVGElement {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

export interface Bar {
  label: string;
  /** 0 to 100; null draws no bar and a dash. */
  value: number | null;
}

/** A horizontal bar chart (0 to 100 %) drawn as inline SVG: one bar per attendee. */
export function barChart(bars: readonly Bar[], description: string): SVGElement {
  const labelWidth = 160;
  const plotWidth = 400;
  const barHeight = 22;
  const top = 20;
  const height = top + bars.length * barHeight + 8;
  const svg = svgElement('svg', {
    viewBox: `0 0 ${labelWidth + plotWidth + 60} ${height}`,
    role: 'img',
    'aria-label': description,
  });
  for (const tick of [0, 25, 50, 75, 100]) {
    const x = labelWidth + (plotWidth * tick) / 100;
    svg.append(svgElement('line', { x1: x, x2: x, y1: top - 4, y2: height - 8, class: 'grid' }));
    const label = svgElement('text', { x, y: 12, 'text-anchor': 'middle', class: 'chart-value' });
    label.textContent = `${tick}%`;
    svg.append(label);
  }
  bars.forEach((bar, index) => {
    const y = top + index * barHeight;
    const name = svgElement('text', { x: labelWidth - 8, y: y + 15, 'text-anchor': 'end' });
    name.setAttribute('class', 'chart-label');
    name.textContent = bar.label;
    svg.append(name);
    const shown = bar.value === null ? '—' : `${formatNumber(bar.value)}%`;
    const width =
      bar.value === null ? 0 : (plotWidth * Math.max(0, Math.min(100, bar.value))) / 100;
    if (bar.value !== null) {
      const rect = svgElement('rect', {
        x: labelWidth,
        y: y + 3,
        width: Math.max(width, 1),
        height: barHeight - 6,
        class: 'bar',
      });
      const title = svgElement('title', {});
      title.textContent = `${bar.label}: ${shown}`;
      rect.append(title);
      svg.append(rect);
    }
    const value = svgElement('text', {
      x: labelWidth + width + 6,
      y: y + 15,
      class: 'chart-value',
    });
    value.textContent = shown;
    svg.append(value);
  });
  return svg;
}
