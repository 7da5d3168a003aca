// gameassist admin cache inspector: reads a session, its tool cache, the tool
// registry and the statistics through the admin API. The admin token stays in
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
    statsView: $('stats-view'), statsTables: $('stats-tables'),
  };

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

  function show(text) {
    if (text === null || text === undefined) return '';
    return typeof text === 'object' ? JSON.stringify(text) : String(text);
  }

  // path fills a contract path template, escaping each parameter.
  function path(template, params) {
    return template.replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(params[k]));
  }

  // api calls one admin route; it throws an Error carrying the contract's
  // error message (and Retry-After on 429).
  async function api(method, template, params) {
    const token = el.token.value.trim();
    if (!token) throw new Error('enter the admin token first');
    const res = await fetch(path(template, params || {}), {
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
      box.appendChild(node('p', 'meta', 'Injection: ' + (s.screen.injection || '(none)')));
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
      li.appendChild(node('div', 'text', m.content));
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
      'key', 'tool',
      { key: 'parameters', render: (r) => show(r.parameters) },
      'cached_at_exchange', 'expires_after_exchange',
      { key: 'remaining_exchanges', render: remaining },
      'hits', 'size_bytes',
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
      'cache_duration', 'offered_to_llm', 'description',
      { key: 'parameters', render: schema },
    ]));
    el.toolsView.hidden = false;
  }

  // loadStats renders each list of the report as a table (per tool, per
  // category, ...) and each object as field/value pairs.
  async function loadStats() {
    const report = await api('GET', '/admin/stats');
    const parts = [];
    for (const [name, value] of Object.entries(report || {})) {
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

  el.token.value = sessionStorage.getItem(TOKEN_KEY) || '';
  el.token.addEventListener('change', () => sessionStorage.setItem(TOKEN_KEY, el.token.value.trim()));
  el.forget.addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    el.token.value = '';
    setStatus('Token forgotten.');
  });
  el.loadSession.addEventListener('click', () => run('Load session', loadSession));
  el.loadCache.addEventListener('click', () => run('Load cache', loadCache));
  el.clearCache.addEventListener('click', () => run('Clear cache', clearCache));
  el.loadTools.addEventListener('click', () => run('Tools', loadTools));
  el.loadStats.addEventListener('click', () => run('Stats', loadStats));
})();
