import { escapeHtml, renderPage } from './html';
import type { FrontDoorLink } from './landing-page.links';

export interface LandingPageView {
  links: readonly FrontDoorLink[];
  /** The demo key to show (development, embedded database). */
  demoApiKey?: string;
  /** The login page sent the browser here with a token: say so, never show the token. */
  loggedIn: boolean;
  /** The script that keeps the token and clears it from the address bar. */
  scriptPath: string;
}

const TITLE = 'Quiz results service';

function linkItem(link: FrontDoorLink): string {
  const note = link.note ? ` <span class="note">— ${escapeHtml(link.note)}</span>` : '';
  return `<li><a href="${escapeHtml(link.path)}">${escapeHtml(link.label)}</a>${note}</li>`;
}

/** The links of the given labels, in that order (those not served are left out). */
function section(title: string, links: readonly FrontDoorLink[], labels: string[]): string {
  const chosen = labels.flatMap((label) => links.filter((link) => link.label === label));
  if (chosen.length === 0) return '';
  return `<h2>${escapeHtml(title)}</h2>\n<ul>\n${chosen.map(linkItem).join('\n')}\n</ul>`;
}

/** The page at `{base}/`: what the service is and where everything is. */
export function landingPage(view: LandingPageView): string {
  const { links } = view;
  const loggedIn = view.loggedIn
    ? `<p class="notice" id="logged-in">You are logged in. This browser keeps your access token for
the demo page; it has been taken out of the address bar so that it is not bookmarked or shared.</p>`
    : '';
  const demoKey = view.demoApiKey
    ? `<p id="demo-key">Demo API key (development only, bound to localhost):</p>
<code class="secret">${escapeHtml(view.demoApiKey)}</code>`
    : '';
  return renderPage(
    TITLE,
    `<script src="${escapeHtml(view.scriptPath)}"></script>
<h1>${TITLE}</h1>
${loggedIn}
<p>The web API that teachers' tools, school platforms and data scripts call to list the users and
quizzes of a classroom quiz application and to compute results: good answers, percentiles, and
min / max / average by user or by quiz. Every call needs an API key; a user's own data also needs
an access token from the login page.</p>
${section('Try it', links, ['Demo page'])}
${demoKey}
${section('GraphQL', links, ['GraphQL IDE', 'Apollo Sandbox', 'GraphQL endpoint'])}
${section('REST (legacy operations)', links, ['REST reference', 'OpenAPI description'])}
${section('API keys', links, ['Key manager'])}
${section('Operations', links, ['Liveness', 'Readiness', 'Health', 'Metrics'])}
<style>a { color: #2456c7; } .note { color: #5b6170; } h2 { font-size: 1.1rem; margin: 1.5rem 0 .25rem; }
ul { padding-left: 1.2rem; margin: .25rem 0; } li { margin: .3rem 0; }</style>`,
  );
}
