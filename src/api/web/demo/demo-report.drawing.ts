/**
 * What the quiz report draws: the histogram of a quiz's scores (inline SVG like the page's other
 * charts, with a table of the same counts), and the questions' rows with their flags.
 */
import type { QuestionStatistic, Quiz } from '@quiz-results/client';
import { formatNumber, svgElement, textCell } from './demo-page.drawing';

/** Below or above these a question is flagged (facility in %, discrimination −1 to 1). */
export const FACILITY_TOO_LOW = 20;
export const FACILITY_TOO_HIGH = 95;
export const DISCRIMINATION_TOO_LOW = 0.2;

/** The ten bands of the histogram: [0,10) … [80,90), then [90,100]. */
export function bandLabel(index: number): string {
  return index === 9 ? '90–100%' : `${index * 10}–${index * 10 + 10}%`;
}

/** Why a question deserves a second look: a short name and the rule it breaks. */
export interface Flag {
  name: string;
  reason: string;
}

export function questionFlags(question: QuestionStatistic): Flag[] {
  const flags: Flag[] = [];
  const { facility, discrimination } = question;
  if (facility !== null && facility < FACILITY_TOO_LOW) {
    flags.push({ name: 'Too hard', reason: `facility under ${FACILITY_TOO_LOW}` });
  }
  if (facility !== null && facility > FACILITY_TOO_HIGH) {
    flags.push({ name: 'Too easy', reason: `facility over ${FACILITY_TOO_HIGH}` });
  }
  if (discrimination !== null && discrimination < DISCRIMINATION_TOO_LOW) {
    flags.push({ name: 'Low discrimination', reason: `under ${DISCRIMINATION_TOO_LOW}` });
  }
  return flags;
}

/** Highest discrimination first, questions without one last; ties in quiz order. */
export function byDiscrimination(a: QuestionStatistic, b: QuestionStatistic): number {
  if (a.discrimination === b.discrimination) return a.questionIndex - b.questionIndex;
  if (a.discrimination === null) return 1;
  if (b.discrimination === null) return -1;
  return b.discrimination - a.discrimination;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A column chart of the ten bands; the axis goes up to a whole number of attempts. */
export function histogramChart(counts: readonly number[], description: string): SVGElement {
  const left = 40;
  const plotWidth = 560;
  const plotHeight = 160;
  const top = 22;
  const bottom = 40;
  const column = plotWidth / counts.length;
  const highest = Math.max(1, ...counts);
  const step = Math.max(1, Math.ceil(highest / 4));
  const axisMax = step * Math.ceil(highest / step);
  const svg = svgElement('svg', {
    viewBox: `0 0 ${left + plotWidth + 10} ${top + plotHeight + bottom}`,
    role: 'img',
    'aria-label': `${description}: ${counts
      .map((count, index) => `${bandLabel(index)} ${plural(count, 'attempt')}`)
      .join(', ')}`,
  });
  for (let tick = 0; tick <= axisMax; tick += step) {
    const y = top + plotHeight - (plotHeight * tick) / axisMax;
    svg.append(svgElement('line', { x1: left, x2: left + plotWidth, y1: y, y2: y, class: 'grid' }));
    const label = svgElement('text', { x: left - 6, y: y + 4, 'text-anchor': 'end' });
    label.setAttribute('class', 'chart-value');
    label.textContent = String(tick);
    svg.append(label);
  }
  const axisTitle = svgElement('text', {
    x: left + plotWidth,
    y: top + plotHeight + 32,
    'text-anchor': 'end',
  });
  axisTitle.setAttribute('class', 'chart-value');
  axisTitle.textContent = '% of good answers';
  svg.append(axisTitle);
  const countTitle = svgElement('text', { x: 0, y: 10 });
  countTitle.setAttribute('class', 'chart-value');
  countTitle.textContent = 'attempts';
  svg.append(countTitle);
  counts.forEach((count, index) => {
    const x = left + index * column;
    const height = (plotHeight * count) / axisMax;
    const y = top + plotHeight - height;
    if (count > 0) {
      const rect = svgElement('rect', {
        x: x + 6,
        y,
        width: column - 12,
        height,
        class: 'bar',
        'data-count': count,
      });
      const title = svgElement('title', {});
      title.textContent = `${bandLabel(index)}: ${plural(count, 'attempt')}`;
      rect.append(title);
      svg.append(rect);
      const value = svgElement('text', { x: x + column / 2, y: y - 4, 'text-anchor': 'middle' });
      value.setAttribute('class', 'chart-value');
      value.textContent = String(count);
      svg.append(value);
    }
    const band = svgElement('text', {
      x: x + column / 2,
      y: top + plotHeight + 16,
      'text-anchor': 'middle',
    });
    band.setAttribute('class', 'chart-label');
    // The axis says "%" once: ten labels with it would crowd each other.
    band.textContent = bandLabel(index).replace('%', '');
    svg.append(band);
  });
  return svg;
}

/** The same counts as rows of a table, for those who do not see the chart. */
export function histogramRows(body: HTMLTableSectionElement, counts: readonly number[]): void {
  body.replaceChildren();
  counts.forEach((count, index) => {
    const row = body.insertRow();
    textCell(row, bandLabel(index));
    textCell(row, String(count), 'number');
  });
}

/** The propositions' texts, shortened; letters when the quiz is not known. */
function propositionName(quiz: Quiz | undefined, questionIndex: number, choice: number): string {
  const question = quiz?.questions[questionIndex];
  const text = question && 'propositions' in question ? question.propositions[choice] : undefined;
  if (text === undefined) return String.fromCharCode(65 + (choice % 26));
  return text.length > 28 ? `${text.slice(0, 27)}…` : text;
}

function isGoodChoice(quiz: Quiz | undefined, questionIndex: number, choice: number): boolean {
  const question = quiz?.questions[questionIndex];
  if (question?.type === 'MultipleChoicesOneGoodAnswer') return question.goodAnswer === choice;
  if (question?.type === 'MultipleChoicesSeveralGoodAnswers') {
    return question.goodAnswer?.includes(choice) ?? false;
  }
  return false;
}

/** One row of the questions' table: number, title, figures, choices, then its flags in words. */
export function questionRow(
  body: HTMLTableSectionElement,
  question: QuestionStatistic,
  quiz: Quiz | undefined,
): void {
  const row = body.insertRow();
  row.dataset.questionIndex = String(question.questionIndex);
  textCell(row, String(question.questionIndex + 1), 'number');
  textCell(row, question.title);
  textCell(row, formatNumber(question.facility), 'number');
  textCell(row, formatNumber(question.discrimination), 'number');
  textCell(row, String(question.nbAnswers), 'number');

  const choicesCell = row.insertCell();
  if (question.choiceCounts === null) {
    choicesCell.textContent = '—';
  } else {
    const list = document.createElement('ul');
    list.className = 'choices';
    question.choiceCounts.forEach((count, choice) => {
      const item = document.createElement('li');
      const good = isGoodChoice(quiz, question.questionIndex, choice);
      if (good) item.className = 'good';
      item.textContent = `${propositionName(quiz, question.questionIndex, choice)}${good ? ' (good answer)' : ''}: ${count}`;
      list.append(item);
    });
    choicesCell.append(list);
  }

  const flags = questionFlags(question);
  const flagsCell = row.insertCell();
  flagsCell.className = 'flags';
  if (flags.length === 0) {
    flagsCell.textContent = '—';
    return;
  }
  row.classList.add('flagged');
  for (const flag of flags) {
    const mark = document.createElement('span');
    mark.className = 'flag';
    const name = document.createElement('strong');
    name.textContent = flag.name;
    mark.append(name, `: ${flag.reason}`);
    flagsCell.append(mark);
  }
}
