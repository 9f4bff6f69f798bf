import { DEMO_REPORT_CSS, DEMO_REPORT_HTML } from './demo-report.view';

/**
 * The demo page of the JavaScript client: static HTML and CSS. Everything it shows is drawn by
 * demo-page.js (bundled from demo-page.script.ts) with the SDK the service serves, so the page
 * needs no inline script or style and runs under a strict Content-Security-Policy. Kept as
 * strings so the TypeScript build carries them to dist with the rest of the server.
 */

export const DEMO_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quiz API client demo</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="demo-page.css">
</head>
<body>
<main>
<header>
  <h1>Quiz API client demo</h1>
  <button id="login-button" type="button" disabled>Log in</button>
</header>
<p id="login-state" class="muted">Loading…</p>
<p id="error" class="error" role="alert" hidden></p>

<form id="api-key-form" method="get" action="" hidden>
  <p>This page calls the service with an API key bound to this host. Enter one to start
  (an operator makes one with <code>npm run cli -- key:create --host localhost</code>).</p>
  <label for="api-key">API key</label>
  <input id="api-key" name="apiKey" type="text" autocomplete="off" required>
  <button type="submit">Use this key</button>
</form>

<div id="app" hidden>
<section>
  <h2>Quizzes you can see</h2>
  <p id="quizzes-summary" class="muted"></p>
  <table id="quizzes-table">
    <thead><tr><th>Title</th><th>Visibility</th><th>Tags</th><th class="number">Questions</th><th>Author</th><th>Created</th></tr></thead>
    <tbody id="quiz-rows"></tbody>
  </table>
  <button id="quizzes-more" type="button" hidden>Show more</button>
</section>

<section>
  <h2>Results of a session</h2>
  <form id="results-form">
    <label for="session-id">Session id</label>
    <input id="session-id" name="sessionId" type="text" inputmode="numeric" pattern="[0-9]+" required>
    <button type="submit">Show results</button>
  </form>
  <p id="results-message" class="muted"></p>
  <div id="results" hidden>
    <table id="results-table">
      <thead><tr><th>Attendee</th><th class="number">Average good answers</th><th class="number">Average % of good answers</th></tr></thead>
      <tbody id="result-rows"></tbody>
    </table>
    <figure>
      <div id="results-chart"></div>
      <figcaption>Average percentage of good answers per attendee</figcaption>
    </figure>
    <p><a id="results-csv" download>Download CSV</a></p>
  </div>
</section>

${DEMO_REPORT_HTML}

<section>
  <h2>Join a session</h2>
  <p class="muted">A pupil who is in none of the teacher's groups joins a session with the code
  the teacher is shown, then takes part in it.</p>
  <form id="join-form">
    <label for="join-code">Join code</label>
    <input id="join-code" name="joinCode" type="text" autocomplete="off" spellcheck="false" required>
    <button id="join-submit" type="submit" disabled>Join</button>
  </form>
  <p id="join-message" class="muted">Log in to join a session with its code.</p>
</section>

<section>
  <h2>Live session</h2>
  <p class="muted">The results of a session you teach while it is played: the table and the chart
  are redrawn each time answers of the session are stored.</p>
  <form id="live-form">
    <label for="live-session-id">Session id</label>
    <input id="live-session-id" name="liveSessionId" type="text" inputmode="numeric" pattern="[0-9]+" required>
    <button id="live-start" type="submit" disabled>Follow live</button>
    <button id="live-stop" type="button" hidden>Stop</button>
  </form>
  <p id="live-status" class="muted" data-state="logged-out">Log in as the teacher of a session to follow it live.</p>
  <p id="live-join" hidden></p>
  <div id="live-results" hidden>
    <p id="live-updated" class="muted"></p>
    <table id="live-table">
      <thead><tr><th>Pupil</th><th class="number">Answers</th><th class="number">Good answers</th><th class="number">% of good answers</th></tr></thead>
      <tbody id="live-rows"></tbody>
    </table>
    <figure>
      <div id="live-chart"></div>
      <figcaption>Percentage of good answers per pupil, as the session is played</figcaption>
    </figure>
  </div>
</section>
</div>
</main>
<script src="../sdk/quiz-api-client.js"></script>
<script src="demo-page.js"></script>
</body>
</html>
`;

export const DEMO_PAGE_CSS = `body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d1f23; }
main { max-width: 56rem; margin: 2rem auto; background: #fff; padding: 1.5rem 2rem 2rem;
  border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
header { display: flex; justify-content: space-between; align-items: center; gap: 1rem; }
h1 { font-size: 1.4rem; margin: 0; }
h2 { font-size: 1.1rem; margin: 2rem 0 .5rem; }
button { padding: .45rem 1.1rem; font-size: .95rem; border: 0; border-radius: 4px;
  background: #2456c7; color: #fff; cursor: pointer; }
button[disabled] { background: #9aa3b5; cursor: default; }
button[data-logged-in="true"] { background: #5b6270; }
#quizzes-more, #live-stop { background: #e4e8f1; color: #1d1f23; }
#quizzes-more { margin-top: .75rem; }
label { font-weight: 600; margin-right: .5rem; }
input[type=text] { padding: .4rem; font-size: .95rem; border: 1px solid #b8bcc4; border-radius: 4px; }
#api-key-form input { width: 100%; box-sizing: border-box; margin: .25rem 0 .75rem; }
.muted { color: #5b6270; }
.error { background: #fdecea; border: 1px solid #f5c2bf; color: #8a1c14; padding: .6rem 1rem;
  border-radius: 4px; }
table { width: 100%; border-collapse: collapse; margin-top: .5rem; font-size: .9rem; }
th, td { text-align: left; padding: .35rem .4rem; border-bottom: 1px solid #e1e3e8; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem;
  background: #e8f3ec; color: #1f6b3a; }
.badge.private, .badge.draft { background: #fff1d6; color: #7a4d00; }
figure { margin: 1rem 0 0; }
figcaption { color: #5b6270; font-size: .85rem; margin-top: .25rem; }
#results-chart svg, #live-chart svg { width: 100%; max-width: 44rem; height: auto; display: block; }
#live-status[data-state="live"] { color: #1f6b3a; font-weight: 600; }
#live-status[data-state="live"]::before { content: ""; display: inline-block; width: .6rem;
  height: .6rem; margin-right: .45rem; border-radius: 50%; background: #2f9e5b; }
#live-status[data-state="ended"] { background: #fff1d6; color: #7a4d00; padding: .6rem 1rem;
  border-radius: 4px; }
#live-join { margin: .25rem 0; }
#live-join code, #join-code { font-family: ui-monospace, monospace; letter-spacing: .08em; }
#live-join code { font-size: 1.1rem; font-weight: 600; }
#live-updated { font-size: .85rem; font-variant-numeric: tabular-nums; margin: .25rem 0 0; }
#live-results.ended table, #live-results.ended figure { opacity: .6; }
.bar { fill: #2456c7; }
.grid { stroke: #d5d8de; stroke-width: 1; }
.chart-label { font-size: 12px; fill: #1d1f23; }
.chart-value { font-size: 12px; fill: #5b6270; }
${DEMO_REPORT_CSS}`;
