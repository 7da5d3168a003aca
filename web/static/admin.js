// gameassist admin inspector: lists recent sessions (by player too), reads a
// session, its tool cache, the tool registry, the statistics (with small
// inline SVG charts) and players' ratings (with each exchange in context
// and its eval scenario to download) through the admin API. The admin token stays in
// this tab's sessionStorage; all server text goes through textContent.
'use strict';

(function () {
  const TOKEN_KEY = 'gameassist.adminToken';
  const $ = (id) => document.getElementById(id);
  const el = {
    token: $('admin-token'), forget: $('forget-token'), sessionId: $('session-id'),
    loadSession: $('load-session'), loadCache: $('load-cache'), clearCache: $('clear-cache'),
    loadTools: $('load-tools'), loadStats: $('load-stats'), status: $('status'),
    sessionView: $('session-view'), sessionMeta: $('session-meta'),
    sessionScreen: $('session-screen'), sessionHistory: $('session-history'),
    cacheView: $('cache-view'), cacheExchange: $('cache-exchange'), cacheTable: $('cache-table'),
    toolsView: $('tools-view'), toolsTable: $('tools-table'),
    statsView: $('stats-view'), statsTables: $('stats-tables'), statsCharts: $('stats-charts'),
    sessionsForm: $('sessions-form'), playerFilter: $('player-filter'),
    sessionsTable: $('sessions-table'), moreSessions: $('more-sessions'),
    feedbackForm: $('feedback-form'), feedbackRating: $('feedback-rating'), feedbackSince: $('feedback-since'),
    feedbackTool: $('feedback-tool'), feedbackScreen: $('feedback-screen'), feedbackTable: $('feedback-table'),
    moreFeedback: $('more-feedback'), feedbackDetail: $('feedback-detail'),
  };
  const SVG = 'http://www.w3.org/2000/svg';

  function setStatus(text, isError) {
    el.status.textContent = text || '';
    el.status.classList.toggle('error', Boolean(isError));
  }

  function node(tag, className, text) {
    const n = document.createElement(tag);
    if (className) n.className = className;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }

  // renderMarkdown fills parent with a reply's markdown subset, as the
  // widget shows it: "- " lines become a list, **x** <strong>, other lines
  // paragraphs. Only text nodes carry the reply's text.
  function renderMarkdown(parent, text) {
    parent.replaceChildren();
    let list = null;
    for (const raw of String(text).split('\n')) {
      const line = raw.replace(/\s+$/, '');
      const item = /^\s*[-*] (.*)$/.exec(line);
      if (item) {
        if (!list) list = parent.appendChild(node('ul'));
        inline(list.appendChild(node('li')), item[1]);
        continue;
      }
      list = null;
      if (line.trim() === '') continue;
      inline(parent.appendChild(node('p')), line);
    }
    return parent;
  }

  function inline(parent, text) {
    text.split(/\*\*(.+?)\*\*/).forEach((part, i) => {
      if (part === '') return;
      parent.appendChild(i % 2 ? node('strong', '', part) : document.createTextNode(part));
    });
  }

  // round keeps at most two decimals: 2.2113333 -> 2.21, 12 -> 12.
  function round(n) {
    return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
  }

  function show(text) {
    if (text === null || text === undefined) return '';
    if (typeof text === 'number') return round(text);
    return typeof text === 'object' ? JSON.stringify(text) : String(text);
  }

  function when(iso) {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? show(iso) : d.toLocaleString();
  }

  function shortKey(key) {
    const span = node('span', 'key', String(key).slice(0, 10) + '…');
    span.title = String(key);
    return span;
  }

  // path fills a contract path template, escaping each parameter.
  function path(template, params) {
    return template.replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(params[k]));
  }

  // api calls one admin route; it throws an Error carrying the contract's
  // error message (and Retry-After on 429).
  async function api(method, template, params, query) {
    const token = el.token.value.trim();
    if (!token) throw new Error('enter the admin token first');
    const res = await fetch(path(template, params || {}) + (query || ''), {
      method,
      headers: { 'Authorization': 'Bearer ' + token, 'Accept': 'application/json' },
    });
    let body = null;
    try {
      body = await res.json();
    } catch (_) { /* empty or not JSON */ }
    if (!res.ok) {
      let msg = 'HTTP ' + res.status;
      if (body && body.error) msg += ' ' + (body.error.code || '') + ': ' + (body.error.message || '');
      if (res.status === 429) msg += ' (retry after ' + (res.headers.get('Retry-After') || '?') + ' s)';
      throw new Error(msg);
    }
    return body;
  }

  function sessionId() {
    const id = el.sessionId.value.trim();
    if (!id) throw new Error('enter a session id first');
    return id;
  }

  // table renders rows (objects) under the given columns; a column is a key
  // or {key, label, render(row) -> Node|string}.
  function table(rows, columns) {
    const cols = columns.map((c) => (typeof c === 'string' ? { key: c, label: c } : c));
    const t = node('table');
    const head = t.appendChild(node('thead')).appendChild(node('tr'));
    for (const c of cols) head.appendChild(node('th', '', c.label !== undefined ? c.label : c.key));
    const tbody = t.appendChild(node('tbody'));
    for (const row of rows) {
      const tr = tbody.appendChild(node('tr'));
      for (const c of cols) {
        const v = c.render ? c.render(row) : row[c.key];
        const td = tr.appendChild(node('td', typeof v === 'number' ? 'num' : ''));
        td.dataset.col = c.key;
        if (v instanceof Node) td.appendChild(v);
        else td.textContent = show(v);
      }
    }
    if (rows.length === 0) {
      const td = tbody.appendChild(node('tr')).appendChild(node('td', '', 'none'));
      td.colSpan = cols.length;
    }
    return t;
  }

  // columnsOf lists every key of the rows, in first-seen order, so tables
  // keep up when the server adds fields.
  function columnsOf(rows) {
    const keys = [];
    for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
    return keys;
  }

  function keyValues(obj) {
    return table(Object.keys(obj).map((k) => ({ field: k, value: obj[k] })), ['field', 'value']);
  }

  function pre(value) {
    return node('pre', '', JSON.stringify(value, null, 2));
  }

  // run performs one action, showing its progress, its outcome (fn may
  // return a message) or its error.
  async function run(label, fn) {
    setStatus(label + '...');
    try {
      const msg = await fn();
      setStatus(msg || label + ': done.');
    } catch (err) {
      setStatus(label + ' failed: ' + err.message, true);
    }
  }

  let sessionsCursor = null;

  // loadSessions lists recent sessions (of one player when the filter is
  // set); more appends the next page.
  let sessionsGen = 0;
  async function loadSessions(more) {
    const gen = ++sessionsGen;
    const params = new URLSearchParams({ limit: '20' });
    const player = el.playerFilter.value.trim();
    if (player) params.set('player_id', player);
    if (more && sessionsCursor) params.set('cursor', sessionsCursor);
    const page = await api('GET', '/admin/sessions', {}, '?' + params.toString());
    if (gen !== sessionsGen) return 'Sessions: superseded.'; // a later search answers
    const rows = page.sessions || [];
    const open = (r) => {
      const b = node('button', 'link', r.id);
      b.type = 'button';
      b.addEventListener('click', () => run('Open session', async () => {
        el.sessionId.value = r.id;
        await loadSession();
        await loadCache();
        el.sessionView.scrollIntoView({ block: 'start' });
      }));
      return b;
    };
    const t = table(rows, [
      { key: 'id', label: 'session', render: open },
      { key: 'player_id', label: 'player' },
      'locale', 'exchange',
      { key: 'screen', render: (r) => (r.screen ? r.screen.name : '') },
      { key: 'last_active', label: 'last active', render: (r) => when(r.last_active) },
    ]);
    if (more) {
      const body = el.sessionsTable.querySelector('tbody');
      for (const tr of t.querySelectorAll('tbody tr')) body.appendChild(tr);
    } else {
      el.sessionsTable.replaceChildren(t);
    }
    sessionsCursor = page.next_cursor || null;
    el.moreSessions.hidden = !sessionsCursor;
    return rows.length + ' sessions listed.';
  }

  async function loadSession() {
    const view = await api('GET', '/admin/sessions/{id}', { id: sessionId() });
    const s = view.session || {};
    const meta = Object.assign({}, s);
    delete meta.screen;
    el.sessionMeta.replaceChildren(keyValues(meta));
    if (s.screen) {
      const box = node('div');
      box.appendChild(node('p', '', s.screen.name));
      box.appendChild(pre(s.screen.data || {}));
      box.appendChild(node('p', 'meta', 'Prompt hint: ' + (s.screen.injection || '(none)')));
      el.sessionScreen.replaceChildren(box);
    } else {
      el.sessionScreen.replaceChildren(node('p', 'meta', 'No screen yet.'));
    }
    el.sessionHistory.replaceChildren();
    for (const m of view.history || []) {
      const li = node('li', 'msg ' + (m.role === 'user' ? 'user' : 'assistant'));
      let who = m.role + ' · exchange ' + m.exchange + ' · ' + m.at;
      if (m.tools && m.tools.length) who += ' · tools: ' + m.tools.join(', ');
      li.appendChild(node('div', 'who', who));
      if (m.role === 'assistant') li.appendChild(renderMarkdown(node('div', 'text markup'), m.content));
      else li.appendChild(node('div', 'text', m.content));
      el.sessionHistory.appendChild(li);
    }
    el.sessionView.hidden = false;
  }

  async function loadCache() {
    const id = sessionId();
    const view = await api('GET', '/admin/sessions/{id}/cache', { id });
    el.cacheExchange.textContent = show(view.exchange);
    const deleteButton = (row) => {
      const b = node('button', 'danger', 'Delete');
      b.type = 'button';
      b.addEventListener('click', () => run('Delete ' + row.key, async () => {
        await api('DELETE', '/admin/sessions/{id}/cache/{key}', { id, key: row.key });
        await loadCache();
      }));
      return b;
    };
    const remaining = (row) => node('span', row.remaining_exchanges < 0 ? 'expired' : '', show(row.remaining_exchanges));
    el.cacheTable.replaceChildren(table(view.entries || [], [
      { key: 'key', render: (r) => shortKey(r.key) }, 'tool',
      { key: 'parameters', render: (r) => show(r.parameters) },
      { key: 'cached_at_exchange', label: 'cached at' }, { key: 'expires_after_exchange', label: 'expires after' },
      { key: 'remaining_exchanges', label: 'remaining', render: remaining },
      'hits', { key: 'size_bytes', label: 'bytes' },
      { key: 'delete', label: '', render: deleteButton },
    ]));
    el.cacheView.hidden = false;
  }

  async function clearCache() {
    const id = sessionId();
    if (!window.confirm('Clear the whole tool cache of session ' + id + '?')) return 'Cancelled.';
    const res = await api('DELETE', '/admin/sessions/{id}/cache', { id });
    await loadCache();
    return 'Deleted ' + show(res && res.deleted) + ' entries.';
  }

  async function loadTools() {
    const list = await api('GET', '/admin/tools');
    const schema = (r) => {
      const d = node('details');
      d.appendChild(node('summary', '', 'schema'));
      d.appendChild(pre(r.parameters));
      return d;
    };
    el.toolsTable.replaceChildren(table(list.tools || [], [
      'name', 'category',
      { key: 'aliases', render: (r) => (r.aliases || []).join(', ') },
      { key: 'display_names', render: (r) => Object.entries(r.display_names || {}).map(([l, n]) => l + ': ' + n).join(' · ') },
      'cache_duration', 'offered_to_llm', 'description',
      { key: 'parameters', render: schema },
    ]));
    el.toolsView.hidden = false;
  }

  // barChart draws, per row, one horizontal bar for each series (a series
  // is {name, value(row)}) as inline SVG, on one scale, labelled with the
  // figures (format(value), one per series, joined by " / "). Bars carry
  // data-series and data-tool so they can be told apart.
  function barChart(title, rows, series, format) {
    const fig = node('figure', 'chart');
    fig.appendChild(node('figcaption', '', title));
    const barH = series.length > 1 ? 7 : 14;
    const rowH = 8 + barH * series.length;
    const labelW = 190;
    const barW = 180;
    const height = Math.max(rowH, rows.length * rowH) + (series.length > 1 ? 16 : 0);
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + (labelW + barW + 110) + ' ' + height);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', title);
    const text = (x, y, content, cls) => {
      const t = document.createElementNS(SVG, 'text');
      t.setAttribute('x', String(x));
      t.setAttribute('y', String(y));
      if (cls) t.setAttribute('class', cls);
      t.textContent = content;
      svg.appendChild(t);
    };
    const max = Math.max(...rows.flatMap((r) => series.map((s) => s.value(r))), 0) || 1;
    rows.forEach((r, i) => {
      const y = i * rowH;
      text(0, y + rowH / 2 + 4, r.name);
      series.forEach((s, j) => {
        const bar = document.createElementNS(SVG, 'rect');
        bar.setAttribute('x', String(labelW));
        bar.setAttribute('y', String(y + 4 + j * barH));
        bar.setAttribute('height', String(barH - 1));
        bar.setAttribute('width', String(Math.max(1, (s.value(r) / max) * barW)));
        bar.setAttribute('class', 'bar series-' + j);
        bar.dataset.series = s.name;
        bar.dataset.tool = r.name;
        svg.appendChild(bar);
      });
      text(labelW + barW + 6, y + rowH / 2 + 4, series.map((s) => format(s.value(r))).join(' / '), 'figure');
    });
    if (series.length > 1) {
      // Legend: a swatch and the name of each series, under the bars.
      series.forEach((s, j) => {
        const x = labelW + j * 70;
        const sw = document.createElementNS(SVG, 'rect');
        sw.setAttribute('x', String(x));
        sw.setAttribute('y', String(height - 11));
        sw.setAttribute('width', '10');
        sw.setAttribute('height', '8');
        sw.setAttribute('class', 'bar series-' + j);
        svg.appendChild(sw);
        text(x + 14, height - 3, s.name, 'legend');
      });
    }
    fig.appendChild(svg);
    return fig;
  }

  function statsCharts(tools) {
    const used = tools.filter((t) => t.calls > 0);
    if (used.length === 0) return [node('p', 'meta', 'No tool calls yet.')];
    const ms = (v) => round(v) + ' ms';
    const pct = (v) => round(v * 100) + ' %';
    const one = (name, value) => [{ name, value }];
    return [
      barChart('Latency p50 / p95 (ms)', used, [
        { name: 'p50', value: (t) => t.p50_ms || 0 },
        { name: 'p95', value: (t) => t.p95_ms || 0 },
      ], ms),
      barChart('Latency mean (ms)', used, one('mean', (t) => t.mean_ms || 0), ms),
      barChart('Cache hit rate', used, one('hit rate', (t) => (t.calls ? t.cache_hits / t.calls : 0)), pct),
      barChart('Errors', used, one('errors', (t) => t.errors || 0), (v) => String(v)),
    ];
  }

  // feedbackStats shows players' ratings: the thumbs-down rate per tool,
  // tool version and screen, as a chart and tables.
  function feedbackStats(fb) {
    const pct = (v) => round(v * 100) + ' %';
    const total = fb.total || {};
    const out = [node('h3', '', 'feedback (players\' ratings)'),
      node('p', 'meta', 'up ' + show(total.up || 0) + ' · down ' + show(total.down || 0) + ' · thumbs-down rate ' + pct(total.down_rate || 0))];
    const rated = (fb.tool_versions || []).map((r) => Object.assign({}, r, { name: r.name + (r.version ? '@v' + r.version : '') }));
    if (rated.length) {
      const box = node('div', 'charts');
      box.appendChild(barChart('Thumbs-down rate per tool version', rated, [{ name: 'down rate', value: (r) => r.down_rate || 0 }], pct));
      out.push(box);
    }
    const cols = [{ key: 'name' }, 'up', 'down', { key: 'down_rate', label: 'down rate', render: (r) => pct(r.down_rate || 0) }];
    for (const [key, label] of [['tools', 'per tool'], ['tool_versions', 'per tool version'], ['screens', 'per screen']]) {
      out.push(node('h3', '', 'feedback ' + label));
      out.push(table(key === 'tool_versions' ? rated : (fb[key] || []), cols));
    }
    return out;
  }

  // loadStats draws the charts, then renders each list of the report as a
  // table (per tool, per category, ...) and each object as field/value
  // pairs.
  async function loadStats() {
    const report = await api('GET', '/admin/stats');
    el.statsCharts.replaceChildren(...statsCharts((report && report.tools) || []));
    const parts = [];
    for (const [name, value] of Object.entries(report || {})) {
      if (name === 'feedback' && value && typeof value === 'object') {
        parts.push(...feedbackStats(value));
        continue;
      }
      parts.push(node('h3', '', name));
      if (Array.isArray(value)) {
        const rows = value.filter((v) => v && typeof v === 'object');
        parts.push(table(rows, columnsOf(rows)));
      } else if (value && typeof value === 'object') {
        parts.push(keyValues(value));
      } else {
        parts.push(node('p', '', show(value)));
      }
    }
    el.statsTables.replaceChildren(...parts);
    el.statsView.hidden = false;
  }

  let feedbackCursor = null;
  let feedbackGen = 0;

  // loadFeedback lists players' ratings with the filters; more appends the
  // next page.
  async function loadFeedback(more) {
    const gen = ++feedbackGen;
    const params = new URLSearchParams({ limit: '20' });
    if (el.feedbackRating.value) params.set('rating', el.feedbackRating.value);
    if (el.feedbackSince.value) params.set('since', el.feedbackSince.value);
    if (el.feedbackTool.value.trim()) params.set('tool', el.feedbackTool.value.trim());
    if (el.feedbackScreen.value.trim()) params.set('screen', el.feedbackScreen.value.trim());
    if (more && feedbackCursor) params.set('cursor', feedbackCursor);
    const page = await api('GET', '/admin/feedback', {}, '?' + params.toString());
    if (gen !== feedbackGen) return 'Feedback: superseded.';
    const rows = page.records || [];
    const open = (r) => {
      const b = node('button', 'link', when(r.at));
      b.type = 'button';
      b.addEventListener('click', () => run('Open feedback', async () => showFeedback(r)));
      return b;
    };
    const t = table(rows, [
      { key: 'at', label: 'rated', render: open },
      { key: 'rating', render: (r) => node('span', 'rating ' + (r.rating === 'down' ? 'down' : 'up'), r.rating === 'down' ? 'down' : 'up') },
      { key: 'screen', render: (r) => (r.screen ? r.screen.name : '') },
      { key: 'message', label: 'question' },
      'comment',
      { key: 'tools', render: (r) => [...new Set((r.tools || []).map((x) => x.name + (x.version ? '@v' + x.version : '')))].join(', ') },
      'model',
      { key: 'scenario', label: '', render: downloadButton },
    ]);
    if (more) {
      const body = el.feedbackTable.querySelector('tbody');
      for (const tr of t.querySelectorAll('tbody tr')) body.appendChild(tr);
    } else {
      el.feedbackTable.replaceChildren(t);
      el.feedbackDetail.hidden = true;
    }
    feedbackCursor = page.next_cursor || null;
    el.moreFeedback.hidden = !feedbackCursor;
    return rows.length + ' ratings listed.';
  }

  function downloadButton(r) {
    const b = node('button', 'download', 'Scenario');
    b.type = 'button';
    b.title = 'Download the eval scenario that replays this exchange';
    b.dataset.id = r.id;
    b.addEventListener('click', () => run('Download scenario', () => downloadScenario(r.id)));
    return b;
  }

  // downloadScenario fetches the scenario with the admin token and saves
  // it as feedback-<id>.yaml.
  async function downloadScenario(id) {
    const token = el.token.value.trim();
    if (!token) throw new Error('enter the admin token first');
    const res = await fetch(path('/admin/feedback/{id}/scenario', { id }), { headers: { 'Authorization': 'Bearer ' + token } });
    if (!res.ok) throw new Error('HTTP ' + res.status);
    const blob = new Blob([await res.text()], { type: 'application/yaml' });
    const a = node('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'feedback-' + id + '.yaml';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    return 'Saved ' + a.download + '.';
  }

  // showFeedback shows a rated exchange in context: the earlier messages,
  // the screen, the question, the tool calls and the reply.
  function showFeedback(r) {
    const box = el.feedbackDetail;
    box.replaceChildren();
    box.appendChild(node('h3', '', 'Exchange ' + r.exchange + ' of session ' + r.session_id));
    const meta = { rating: r.rating, comment: r.comment || '', player: r.player_id || '', locale: r.locale, model: r.model || '', trace_id: r.trace_id || '', answered: when(r.answered_at) };
    box.appendChild(keyValues(meta));
    const ol = box.appendChild(node('ol', 'transcript full'));
    const say = (role, content, extra) => {
      const li = ol.appendChild(node('li', 'msg ' + (role === 'user' ? 'user' : 'assistant')));
      li.appendChild(node('div', 'who', role + (extra ? ' · ' + extra : '')));
      if (role === 'assistant') li.appendChild(renderMarkdown(node('div', 'text markup'), content));
      else li.appendChild(node('div', 'text', content));
      return li;
    };
    for (const m of r.window || []) say(m.role, m.content, 'exchange ' + m.exchange + (m.screen ? ' · ' + m.screen.name : ''));
    if (r.screen) {
      const li = ol.appendChild(node('li', 'msg screen'));
      li.appendChild(node('div', 'who', 'screen · ' + r.screen.name));
      const data = li.appendChild(node('details'));
      data.appendChild(node('summary', '', 'screen data'));
      data.appendChild(pre(r.screen.data || {}));
    }
    say('user', r.message, 'rated exchange ' + r.exchange);
    const answer = say('assistant', r.reply, r.rating === 'down' ? 'rated down' : 'rated up');
    answer.classList.add('rated');
    const tools = answer.appendChild(node('ul', 'tools'));
    for (const x of r.tools || []) {
      tools.appendChild(node('li', x.status === 'success' ? 'success' : 'error',
        x.name + (x.version ? '@v' + x.version : '') + ' ' + JSON.stringify(x.arguments || {}) + ' · ' + x.source + ' · ' + x.status));
    }
    box.appendChild(downloadButton(r));
    box.hidden = false;
    box.scrollIntoView({ block: 'start' });
    return 'Feedback ' + r.id + ' shown.';
  }

  // A token entered (or kept in this tab) loads the recent sessions and
  // the feedback at once.
  function tokenEntered() {
    const token = el.token.value.trim();
    sessionStorage.setItem(TOKEN_KEY, token);
    if (!token) return;
    run('Sessions', () => loadSessions(false));
    run('Feedback', () => loadFeedback(false));
  }

  el.token.value = sessionStorage.getItem(TOKEN_KEY) || '';
  el.token.addEventListener('change', tokenEntered);
  el.token.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); tokenEntered(); } });
  el.feedbackForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    run('Feedback', () => loadFeedback(false));
  });
  el.moreFeedback.addEventListener('click', () => run('More feedback', () => loadFeedback(true)));
  if (el.token.value) tokenEntered();
  el.forget.addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    el.token.value = '';
    setStatus('Token forgotten.');
  });
  el.sessionsForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    run('Sessions', () => loadSessions(false));
  });
  el.moreSessions.addEventListener('click', () => run('More sessions', () => loadSessions(true)));
  el.loadSession.addEventListener('click', () => run('Load session', loadSession));
  el.loadCache.addEventListener('click', () => run('Load cache', loadCache));
  el.clearCache.addEventListener('click', () => run('Clear cache', clearCache));
  el.loadTools.addEventListener('click', () => run('Tools', loadTools));
  el.loadStats.addEventListener('click', () => run('Stats', loadStats));
})();
