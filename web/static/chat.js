// gameassist chat widget demo: starts a session, sends messages with the
// player's current screen and renders the streamed answer (Server-Sent Events
// read from a fetch body). All server text goes through textContent.
'use strict';

(function () {
  // Screens of the sample game, with example data a game client would send.
  const SCREENS = [
    { name: '', label: 'none', data: null },
    { name: 'MainMenuPresenter', data: { PlayerLevel: 27 } },
    { name: 'ChampionFeatureModelsPresenter', data: { ChampionConfigId: 1001, Level: 50, Stars: 5 } },
    { name: 'ChampionCollectionPresenter', data: { SelectedChampionId: 1002, Filter: { Faction: 101 } } },
    { name: 'BossBattlePresenter', data: { BossConfigId: 5001, Phase: 2, Team: [1001, 1002, 1003, 1004] } },
    { name: 'TeamSetupPresenter', data: { TargetBossId: 5002, Slot: { Champion: { ConfigId: 1003 } } } },
    { name: 'DungeonSelectPresenter', data: { DungeonConfigId: 7001, Stage: 10 } },
    { name: 'CampaignMapPresenter', data: { DungeonConfigId: 7002, Chapter: 3 } },
    { name: 'GearInventoryPresenter', data: { GearSetConfigId: 8001, Champion: { ConfigId: 1002 } } },
    { name: 'FactionOverviewPresenter', data: { FactionConfigId: 101 } },
    { name: 'MarketPresenter', data: { Offer: { ChampionConfigId: 1004, Price: 450 } } },
    { name: 'MasteryTreePresenter', data: { ChampionConfigId: 1001, Tree: 'Offense' } },
  ];

  const $ = (id) => document.getElementById(id);
  const el = {
    locale: $('locale'), playerId: $('player-id'), start: $('start'),
    sessionId: $('session-id'), exchange: $('exchange'), degraded: $('degraded'),
    screen: $('screen'), screenData: $('screen-data'),
    transcript: $('transcript'), form: $('chat-form'), message: $('message'),
    send: $('send'), stop: $('stop'), status: $('status'),
  };

  // The session lives in this page only: a reload starts over.
  let session = null; // {session_id, session_token}
  let inFlight = null; // AbortController of the running turn

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

  // errorText turns a failed HTTP answer into one line for the player:
  // the contract's {"error":{"code","message"}}, plus Retry-After on 429.
  async function errorText(res) {
    let msg = 'HTTP ' + res.status;
    try {
      const body = await res.json();
      if (body && body.error) msg += ' ' + (body.error.code || '') + ': ' + (body.error.message || '');
    } catch (_) { /* not JSON: the status says enough */ }
    if (res.status === 429) {
      const after = res.headers.get('Retry-After');
      msg += after ? ' (retry after ' + after + ' s)' : ' (rate limited)';
    }
    return msg;
  }

  function fillScreens() {
    for (const s of SCREENS) {
      const opt = node('option', '', s.label || s.name);
      opt.value = s.name;
      el.screen.appendChild(opt);
    }
    el.screen.addEventListener('change', showScreenData);
    showScreenData();
  }

  function showScreenData() {
    const s = SCREENS.find((x) => x.name === el.screen.value);
    el.screenData.value = s && s.data ? JSON.stringify(s.data) : '';
    el.screenData.disabled = !s || !s.name;
  }

  // currentScreen reads the picker; it throws on data that is not a JSON object.
  function currentScreen() {
    const name = el.screen.value;
    if (!name) return null;
    const raw = el.screenData.value.trim();
    const data = raw === '' ? {} : JSON.parse(raw);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new Error('screen data must be a JSON object');
    }
    return { name, data };
  }

  async function startSession() {
    el.start.disabled = true;
    setStatus('Starting a session...');
    try {
      const body = { locale: el.locale.value };
      const pid = el.playerId.value.trim();
      if (pid) body.player_id = pid;
      const res = await fetch('/v1/sessions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) {
        setStatus(await errorText(res), true);
        return;
      }
      session = await res.json();
      el.sessionId.textContent = session.session_id;
      el.exchange.textContent = '0';
      el.degraded.hidden = true;
      el.transcript.replaceChildren();
      el.message.disabled = false;
      el.send.disabled = false;
      el.message.focus();
      setStatus('Session started.');
    } catch (err) {
      setStatus('Could not start a session: ' + err.message, true);
    } finally {
      el.start.disabled = false;
    }
  }

  // Turn renders one assistant answer as its events arrive.
  function Turn() {
    const li = node('li', 'msg assistant');
    li.appendChild(node('div', 'who', 'assistant'));
    this.text = li.appendChild(node('div', 'text'));
    this.tools = li.appendChild(node('ul', 'tools'));
    this.pending = []; // rows of tool_call events not yet answered
    this.li = li;
    el.transcript.appendChild(li);
  }

  Turn.prototype.toolRow = function (call) {
    const row = node('li');
    row.appendChild(node('span', 'name', call.name));
    row.appendChild(node('span', 'detail pending', ' … running'));
    this.tools.appendChild(row);
    return row;
  };

  Turn.prototype.fillRow = function (row, o) {
    const detail = row.lastChild;
    let text = ' ' + (o.source || '?') + ' · ' + (o.status || '?');
    if (typeof o.duration_ms === 'number') text += ' · ' + o.duration_ms.toFixed(2) + ' ms';
    if (o.reason) text += ' · ' + o.reason;
    detail.textContent = text;
    detail.className = 'detail ' + (o.status === 'success' ? 'success' : 'error');
  };

  Turn.prototype.onEvent = function (name, data) {
    switch (name) {
      case 'tool_call':
        this.pending.push(this.toolRow(data));
        break;
      case 'tool_result': {
        const i = this.pending.findIndex((r) => r.firstChild.textContent === data.name);
        const row = i >= 0 ? this.pending.splice(i, 1)[0] : this.toolRow(data);
        this.fillRow(row, data);
        break;
      }
      case 'delta':
        this.text.textContent += data.text || '';
        break;
      case 'done':
        this.finish(data);
        break;
      case 'error':
        this.fail((data && data.error && data.error.message) || 'the turn failed');
        break;
      default: // unknown events are ignored, so the server may add more
    }
  };

  // finish shows the full reply, which is authoritative over the deltas.
  Turn.prototype.finish = function (reply) {
    this.text.textContent = reply.reply || '';
    this.tools.replaceChildren();
    for (const o of reply.tool_calls || []) this.fillRow(this.toolRow(o), o);
    el.exchange.textContent = String(reply.exchange);
    el.degraded.hidden = !reply.degraded;
    let meta = 'exchange ' + reply.exchange;
    if (reply.degraded) meta += ' · degraded (offline responder)';
    this.li.appendChild(node('div', 'meta', meta));
    this.done = true;
  };

  Turn.prototype.fail = function (message) {
    this.li.classList.add('error');
    this.li.appendChild(node('div', 'text', 'Error: ' + message));
    this.error = message;
    this.done = true;
  };

  // readEvents parses a text/event-stream body and calls onEvent(name, data)
  // for each event whose data is JSON.
  async function readEvents(body, onEvent) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    let cr = ''; // a trailing "\r" may be the first half of "\r\n"
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      let text = cr + value;
      cr = text.endsWith('\r') ? '\r' : '';
      if (cr) text = text.slice(0, -1);
      buf += text.replace(/\r\n?/g, '\n');
      let cut;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        dispatch(buf.slice(0, cut), onEvent);
        buf = buf.slice(cut + 2);
      }
    }
    buf += cr ? '\n' : '';
    if (buf.trim()) dispatch(buf, onEvent);
  }

  function dispatch(block, onEvent) {
    let name = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    let parsed;
    try {
      parsed = JSON.parse(data.join('\n'));
    } catch (_) {
      return; // not one of ours
    }
    onEvent(name, parsed);
  }

  function addUserMessage(text) {
    const li = node('li', 'msg user');
    li.appendChild(node('div', 'who', 'player'));
    li.appendChild(node('div', 'text', text));
    el.transcript.appendChild(li);
  }

  function setBusy(busy) {
    el.send.disabled = busy || !session;
    el.stop.disabled = !busy;
    el.start.disabled = busy;
  }

  async function send(ev) {
    ev.preventDefault();
    const message = el.message.value.trim();
    if (!session || !message || inFlight) return;
    let screen;
    try {
      screen = currentScreen();
    } catch (err) {
      setStatus('Bad screen data: ' + err.message, true);
      return;
    }
    const body = { session_id: session.session_id, message, stream: true };
    if (screen) body.screen = screen;
    addUserMessage(message);
    el.message.value = '';
    const turn = new Turn();
    inFlight = new AbortController();
    setBusy(true);
    setStatus('Thinking...');
    try {
      const res = await fetch('/v1/chat', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Accept': 'text/event-stream',
          'Authorization': 'Bearer ' + session.session_token,
        },
        body: JSON.stringify(body),
        signal: inFlight.signal,
      });
      if (!res.ok) {
        const msg = await errorText(res);
        turn.fail(msg);
        setStatus(msg, true);
        return;
      }
      const type = res.headers.get('Content-Type') || '';
      if (type.startsWith('text/event-stream')) {
        await readEvents(res.body, (name, data) => turn.onEvent(name, data));
      } else {
        turn.finish(await res.json());
      }
      if (!turn.done) turn.fail('the answer stopped before it was complete');
      setStatus(turn.error ? 'The turn failed: ' + turn.error : '', Boolean(turn.error));
    } catch (err) {
      const msg = err.name === 'AbortError' ? 'stopped' : err.message;
      turn.fail(msg);
      setStatus(msg, err.name !== 'AbortError');
    } finally {
      inFlight = null;
      setBusy(false);
      el.transcript.scrollTop = el.transcript.scrollHeight;
      el.message.focus();
    }
  }

  el.start.addEventListener('click', startSession);
  el.form.addEventListener('submit', send);
  el.stop.addEventListener('click', () => { if (inFlight) inFlight.abort(); });
  fillScreens();
})();
