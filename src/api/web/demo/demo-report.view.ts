/**
 * The "Quiz report" part of the demo page (item analysis, contract.md §12): its HTML and CSS,
 * put into the page by demo-page.view.ts. demo-report.panel.ts fills it.
 */

export const DEMO_REPORT_HTML = `<section id="report-section">
  <h2>Quiz report</h2>
  <p class="muted">How the quizzes of a session you teach went, and which of their questions to
  look at again: the scores of each quiz and its questions, most discriminating first.</p>
  <form id="report-form">
    <label for="report-session-id">Session id</label>
    <input id="report-session-id" name="reportSessionId" type="text" inputmode="numeric" pattern="[0-9]+" required>
    <button id="report-show" type="submit" disabled>Show report</button>
  </form>
  <p id="report-status" class="muted" data-state="logged-out">Log in as the teacher of a session to see its quiz report.</p>
  <div id="report" hidden>
    <p class="report-picker">
      <label for="report-quiz">Quiz</label>
      <select id="report-quiz"></select>
    </p>
    <dl id="report-summary" class="stats">
      <div><dt>Attempts</dt><dd id="report-attempts"></dd></div>
      <div><dt>Mean</dt><dd id="report-mean"></dd></div>
      <div><dt>Median</dt><dd id="report-median"></dd></div>
      <div><dt>Standard deviation</dt><dd id="report-stddev"></dd></div>
      <div><dt>Cronbach’s alpha</dt><dd id="report-alpha"></dd></div>
    </dl>
    <p id="report-note" class="muted" hidden></p>
    <figure id="report-histogram-figure">
      <div id="report-histogram"></div>
      <figcaption>Attempts by percentage of good answers (10 bands)</figcaption>
    </figure>
    <details id="report-histogram-details">
      <summary>The histogram as a table</summary>
      <table id="report-histogram-table">
        <thead><tr><th>Good answers</th><th class="number">Attempts</th></tr></thead>
        <tbody id="report-histogram-rows"></tbody>
      </table>
    </details>
    <h3>Questions, most discriminating first</h3>
    <p class="muted">Facility: % of attempts that answered the question well. Discrimination:
    how much answering it well goes with doing well on the rest of the quiz (−1 to 1). Flagged:
    facility under 20 (too hard) or over 95 (too easy), discrimination under 0.2.</p>
    <div class="scroll">
    <table id="report-questions">
      <thead><tr><th class="number">#</th><th>Question</th><th class="number">Facility (%)</th><th class="number">Discrimination</th><th class="number">Answers</th><th>Choices</th><th>Flags</th></tr></thead>
      <tbody id="report-question-rows"></tbody>
    </table>
    </div>
  </div>
</section>`;

export const DEMO_REPORT_CSS = `h3 { font-size: 1rem; margin: 1.5rem 0 .25rem; }
select { padding: .35rem; font-size: .95rem; border: 1px solid #b8bcc4; border-radius: 4px;
  max-width: 100%; }
.report-picker { margin: 1rem 0 .5rem; }
.stats { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin: .5rem 0; }
.stats div { background: #f4f5f7; border-radius: 4px; padding: .4rem .8rem; min-width: 7rem; }
.stats dt { font-size: .8rem; color: #5b6270; }
.stats dd { margin: 0; font-size: 1.15rem; font-weight: 600; font-variant-numeric: tabular-nums; }
#report-histogram svg { width: 100%; max-width: 40rem; height: auto; display: block; }
details { margin-top: .5rem; font-size: .9rem; }
summary { cursor: pointer; color: #2456c7; }
#report-histogram-table { width: auto; min-width: 16rem; }
#report-questions td { vertical-align: top; }
#report-questions tr.flagged td:first-child { box-shadow: inset 4px 0 0 #b3261e;
  padding-left: .7rem; }
.scroll { overflow-x: auto; }
.choices { list-style: none; margin: 0; padding: 0; font-size: .85rem; }
.choices li, .flag { white-space: nowrap; }
.choices .good { font-weight: 600; }
.flag { display: block; margin: 0 0 .2rem; padding: .05rem .5rem; border-radius: 4px;
  font-size: .8rem; background: #fdecea; color: #8a1c14; border: 1px solid #f5c2bf; }
.flag strong::before { content: "⚠ "; }
#report-status[data-state="loading"] { font-style: italic; }
`;
