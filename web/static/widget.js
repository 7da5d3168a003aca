// gameassist embeddable chat widget. One script tag adds a launcher and a
// chat panel, inside a shadow root, to any page:
//
//   <script src="https://assist.example.com/web/widget.js"
//           data-server="https://assist.example.com" async></script>
//
// Optional attributes: data-locale (en|fr|de; default: the browser's),
// data-player-id. The host page drives it through window.gameassist:
// setScreen(name, data), open(), close(), ask(text), on(event, fn) with
// events "ready", "open", "close", "screen", "tool", "delta", "answer",
// "feedback" and "error" (also dispatched on window as "gameassist:<event>"
// CustomEvents), and setSuggestions(screen, [three questions]). Every
// answer has thumbs up/down (POST /v1/feedback; a comment box on down).
// Calls made before the script loaded are queued by
//   window.gameassist = window.gameassist || {q: []}; gameassist.q.push(['setScreen', name, data]);
// Model and player text is only ever set with textContent.
'use strict';

(function () {
  const script = document.currentScript;
  const queued = (window.gameassist && Array.isArray(window.gameassist.q)) ? window.gameassist.q : [];
  if (window.gameassist && window.gameassist.version) return; // loaded twice

  const scriptURL = new URL(script ? script.src : 'widget.js', document.baseURI);
  const server = ((script && script.dataset.server) || scriptURL.origin).replace(/\/+$/, '');

  const STRINGS = {
    en: {
      title: 'Game assistant', open: 'Ask the assistant', close: 'Close', placeholder: 'Ask about this screen, a champion, a boss...',
      send: 'Send', stop: 'Stop', you: 'You', assistant: 'Assistant', typing: 'The assistant is typing',
      stopped: 'Stopped.', failed: 'Something went wrong. Try again.', busy: 'Please wait a moment and try again.',
      offline: 'Offline answer', cached: 'from memory', toolError: 'unavailable', lookup: 'Looking up',
      answered: 'The assistant answered.', log: 'Conversation', message: 'Your question',
      helpful: 'Helpful', notHelpful: 'Not helpful', rateThis: 'Rate this answer', thanks: 'Thanks for your feedback.',
      commentLabel: 'What was wrong? (optional)', commentSend: 'Send feedback', commentCancel: 'Cancel',
      rateFailed: 'Your feedback could not be sent.', greeting: 'Hi! Ask me about what is on your screen, or try one of these:',
      suggestions: 'Suggested questions',
    },
    fr: {
      title: 'Assistant de jeu', open: "Demander à l'assistant", close: 'Fermer', placeholder: 'Une question sur cet écran, un champion, un boss…',
      send: 'Envoyer', stop: 'Arrêter', you: 'Vous', assistant: 'Assistant', typing: "L'assistant écrit",
      stopped: 'Arrêté.', failed: 'Une erreur est survenue. Réessayez.', busy: 'Patientez un instant puis réessayez.',
      offline: 'Réponse hors ligne', cached: 'en mémoire', toolError: 'indisponible', lookup: 'Recherche',
      answered: "L'assistant a répondu.", log: 'Conversation', message: 'Votre question',
      helpful: 'Utile', notHelpful: 'Pas utile', rateThis: 'Notez cette réponse', thanks: 'Merci pour votre avis.',
      commentLabel: "Qu'est-ce qui n'allait pas ? (facultatif)", commentSend: "Envoyer l'avis", commentCancel: 'Annuler',
      rateFailed: "Votre avis n'a pas pu être envoyé.", greeting: 'Bonjour ! Posez-moi une question sur cet écran, ou essayez :',
      suggestions: 'Questions suggérées',
    },
    de: {
      title: 'Spielassistent', open: 'Den Assistenten fragen', close: 'Schließen', placeholder: 'Frag nach diesem Bildschirm, einem Champion, einem Boss …',
      send: 'Senden', stop: 'Stopp', you: 'Du', assistant: 'Assistent', typing: 'Der Assistent schreibt',
      stopped: 'Gestoppt.', failed: 'Etwas ist schiefgelaufen. Bitte erneut versuchen.', busy: 'Bitte kurz warten und erneut versuchen.',
      offline: 'Offline-Antwort', cached: 'aus dem Speicher', toolError: 'nicht verfügbar', lookup: 'Suche',
      answered: 'Der Assistent hat geantwortet.', log: 'Unterhaltung', message: 'Deine Frage',
      helpful: 'Hilfreich', notHelpful: 'Nicht hilfreich', rateThis: 'Diese Antwort bewerten', thanks: 'Danke für dein Feedback.',
      commentLabel: 'Was war falsch? (optional)', commentSend: 'Feedback senden', commentCancel: 'Abbrechen',
      rateFailed: 'Dein Feedback konnte nicht gesendet werden.', greeting: 'Hallo! Frag mich zu diesem Bildschirm, oder versuch eine dieser Fragen:',
      suggestions: 'Vorgeschlagene Fragen',
    },
  };
  function pickLocale(wanted) {
    for (const l of [wanted, navigator.language].filter(Boolean)) {
      const short = String(l).slice(0, 2).toLowerCase();
      if (STRINGS[short]) return short;
    }
    return 'en';
  }
  // SUGGESTIONS are three questions per screen of the sample game, by
  // locale; other screens get the general ones. A game sets its own with
  // gameassist.setSuggestions(name, [questions]).
  const SUGGESTIONS = {
    en: {
      BossBattlePresenter: ['Who counters this boss?', 'What is this boss weak to?', 'Which of my champions should I bring?'],
      ChampionFeatureModelsPresenter: ['Tell me about this champion', 'What gear should this champion use?', 'What are the skills of this champion?'],
      DungeonSelectPresenter: ['What drops in this dungeon?', 'Which team clears this stage?', 'Where should I farm next?'],
      GearInventoryPresenter: ['What does this gear set do?', 'Who should wear this gear set?', 'Which gear set is best for attackers?'],
      MainMenuPresenter: ['What should I do next?', 'List all bosses', 'Who are the strongest champions?'],
      '': ['What should I do next?', 'List all bosses', 'Who are the strongest champions?'],
    },
    fr: {
      BossBattlePresenter: ['Qui contre ce boss ?', 'À quoi ce boss est-il faible ?', 'Lesquels de mes champions emmener ?'],
      ChampionFeatureModelsPresenter: ['Parle-moi de ce champion', 'Quel équipement pour ce champion ?', 'Quelles sont les compétences de ce champion ?'],
      '': ['Que faire ensuite ?', 'Liste tous les boss', 'Quels sont les champions les plus forts ?'],
    },
    de: {
      BossBattlePresenter: ['Wer kontert diesen Boss?', 'Wogegen ist dieser Boss schwach?', 'Welche meiner Champions soll ich mitnehmen?'],
      ChampionFeatureModelsPresenter: ['Erzähl mir von diesem Champion', 'Welche Ausrüstung für diesen Champion?', 'Welche Fähigkeiten hat dieser Champion?'],
      '': ['Was soll ich als Nächstes tun?', 'Liste alle Bosse auf', 'Wer sind die stärksten Champions?'],
    },
  };
  const locale = pickLocale(script && script.dataset.locale);
  const T = STRINGS[locale];
  const playerID = (script && script.dataset.playerId) || '';
  const STORE_KEY = 'gameassist.session:' + server;

  // toolLabel is the chip text of a tool call: the display name the server
  // sends with each tool event (from the tool registry, in the session's
  // locale), or, from an older server, the tool's name made readable.
  function toolName(o) {
    return (typeof o.display_name === 'string' && o.display_name.trim())
      ? o.display_name.trim()
      : String(o.name).replace(/_+/g, ' ').trim();
  }
  function toolLabel(o) { return T.lookup + ' · ' + toolName(o); }

  function node(tag, className, text) {
    const n = document.createElement(tag);
    if (className) n.className = className;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }

  // renderMarkdown fills parent with the reply's markdown subset: "- "
  // lines become a list, **x** becomes <strong>, other lines paragraphs.
  // Only text nodes carry the reply's text.
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
  }

  function inline(parent, text) {
    const parts = text.split(/\*\*(.+?)\*\*/);
    parts.forEach((part, i) => {
      if (part === '') return;
      parent.appendChild(i % 2 ? node('strong', '', part) : document.createTextNode(part));
    });
  }

  // ---- the shadow DOM ----
  const host = node('div');
  host.id = 'gameassist-widget';
  const root = host.attachShadow({ mode: 'open' });
  const css = node('link');
  css.rel = 'stylesheet';
  css.href = new URL('widget.css', scriptURL).href;
  root.appendChild(css);

  const launcher = root.appendChild(node('button', 'launcher', ''));
  launcher.type = 'button';
  launcher.setAttribute('aria-label', T.open);
  launcher.setAttribute('aria-expanded', 'false');
  launcher.setAttribute('aria-controls', 'ga-panel');
  launcher.appendChild(node('span', 'launcher-icon', '?'));
  launcher.setAttribute('part', 'launcher');

  const panel = root.appendChild(node('section', 'panel'));
  panel.id = 'ga-panel';
  panel.hidden = true;
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', T.title);
  panel.lang = locale;
  const header = panel.appendChild(node('header'));
  header.appendChild(node('h2', '', T.title));
  const closeBtn = header.appendChild(node('button', 'close', '×'));
  closeBtn.type = 'button';
  closeBtn.setAttribute('aria-label', T.close);
  const log = panel.appendChild(node('ol', 'log'));
  log.setAttribute('role', 'log');
  log.setAttribute('aria-live', 'polite');
  log.setAttribute('aria-label', T.log);
  const live = panel.appendChild(node('p', 'sr-only'));
  live.setAttribute('role', 'status');
  const form = panel.appendChild(node('form', 'ask'));
  const input = form.appendChild(node('textarea'));
  input.rows = 2;
  input.maxLength = 4000;
  input.placeholder = T.placeholder;
  input.setAttribute('aria-label', T.message);
  const sendBtn = form.appendChild(node('button', 'send', T.send));
  sendBtn.type = 'submit';
  const stopBtn = form.appendChild(node('button', 'stop', T.stop));
  stopBtn.type = 'button';
  stopBtn.hidden = true;

  // ---- state ----
  const listeners = {};
  let screen = null;
  let inFlight = null;

  function emit(name, detail) {
    for (const fn of listeners[name] || []) {
      try { fn(detail); } catch (err) { setTimeout(() => { throw err; }); }
    }
    window.dispatchEvent(new CustomEvent('gameassist:' + name, { detail }));
  }

  function loadSession() {
    try {
      const s = JSON.parse(sessionStorage.getItem(STORE_KEY) || 'null');
      if (s && typeof s.session_id === 'string' && typeof s.session_token === 'string' && s.locale === locale) return s;
    } catch (_) { /* damaged: start over */ }
    return null;
  }

  async function call(method, path, body, headers, signal) {
    return fetch(server + path, {
      method,
      headers: Object.assign({ 'Content-Type': 'application/json' }, headers || {}),
      body: JSON.stringify(body),
      signal,
    });
  }

  async function session(fresh) {
    let s = fresh ? null : loadSession();
    if (s) return s;
    const body = { locale };
    if (playerID) body.player_id = playerID;
    const res = await call('POST', '/v1/sessions', body);
    if (!res.ok) throw new Error('HTTP ' + res.status);
    const created = await res.json();
    s = { session_id: created.session_id, session_token: created.session_token, locale };
    sessionStorage.setItem(STORE_KEY, JSON.stringify(s));
    return s;
  }

  // readEvents parses a text/event-stream body, calling onEvent(name, data)
  // for each event whose data is JSON.
  async function readEvents(body, onEvent) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value.replace(/\r\n?/g, '\n');
      let cut;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        dispatch(buf.slice(0, cut), onEvent);
        buf = buf.slice(cut + 2);
      }
    }
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
    try { parsed = JSON.parse(data.join('\n')); } catch (_) { return; }
    onEvent(name, parsed);
  }

  // Bubble is one assistant answer being streamed.
  function Bubble() {
    this.li = log.appendChild(node('li', 'msg assistant'));
    this.li.appendChild(node('span', 'sr-only', T.assistant + ': '));
    this.chips = this.li.appendChild(node('ul', 'chips'));
    this.chips.hidden = true;
    this.typing = this.li.appendChild(node('span', 'typing'));
    this.typing.setAttribute('aria-label', T.typing);
    this.typing.setAttribute('role', 'img');
    for (let i = 0; i < 3; i++) this.typing.appendChild(node('span', 'dot'));
    this.body = this.li.appendChild(node('div', 'text'));
    this.text = '';
    this.chipByName = {};
  }

  Bubble.prototype.chip = function (o) {
    let c = this.chipByName[o.name];
    if (!c) {
      c = this.chips.appendChild(node('li', 'chip running', toolLabel(o)));
      c.dataset.tool = o.name;
      this.chipByName[o.name] = c;
      this.chips.hidden = false;
    }
    if (o.status) {
      // The result arrived: the chip says what was looked up, done.
      c.className = 'chip done ' + (o.status === 'success' ? 'ok' : 'failed');
      let label = (o.status === 'success' ? '✓ ' : '✗ ') + toolName(o);
      if (o.source === 'cache') label += ' (' + T.cached + ')';
      if (o.status !== 'success') label += ' (' + T.toolError + ')';
      c.textContent = label;
    }
  };

  Bubble.prototype.onEvent = function (name, data) {
    switch (name) {
      case 'tool_call':
      case 'tool_result':
        this.chip(data);
        emit('tool', data);
        break;
      case 'delta':
        this.typing.hidden = true;
        this.text += data.text || '';
        renderMarkdown(this.body, this.text);
        emit('delta', data);
        break;
      case 'done':
        this.finish(data);
        break;
      case 'error':
        this.fail(T.failed);
        break;
      default:
    }
  };

  Bubble.prototype.finish = function (reply) {
    this.typing.hidden = true;
    this.done = true;
    renderMarkdown(this.body, reply.reply || '');
    for (const o of reply.tool_calls || []) this.chip(o);
    if (reply.degraded) this.li.appendChild(node('p', 'note', T.offline));
    if (this.session && Number.isInteger(reply.exchange) && reply.exchange > 0) {
      this.li.appendChild(feedbackRow(this.session, reply.exchange));
    }
    reveal(this.question, this.li);
    live.textContent = T.answered;
    emit('answer', reply);
  };

  // reveal scrolls the log to a new answer: the whole exchange when it
  // fits, else from the start of the answer.
  function reveal(question, answer) {
    const top = (n) => n.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop;
    const start = question ? top(question) : top(answer);
    const end = top(answer) + answer.offsetHeight;
    log.scrollTop = (end - start <= log.clientHeight) ? end - log.clientHeight + 12 : top(answer) - 8;
  }

  // thumbIcon draws a thumb (up, or down when flipped) as inline SVG, so it
  // shows without an emoji font.
  function thumbIcon(flipped) {
    const NS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('width', '18');
    svg.setAttribute('height', '18');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    const p = svg.appendChild(document.createElementNS(NS, 'path'));
    p.setAttribute('d', 'M1 21h4V9H1v12zm22-11c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z');
    p.setAttribute('fill', 'currentColor');
    if (flipped) svg.setAttribute('transform', 'rotate(180)');
    return svg;
  }

  // feedbackRow is the thumbs up/down under an answer; thumbs down opens
  // an optional comment box. The rating is sent at once; a comment sent
  // afterwards replaces it (the server keeps one rating per answer).
  function feedbackRow(s, exchange) {
    const row = node('div', 'rate');
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', T.rateThis);
    const up = row.appendChild(node('button', 'thumb up'));
    const down = row.appendChild(node('button', 'thumb down'));
    for (const [b, label] of [[up, T.helpful], [down, T.notHelpful]]) {
      b.appendChild(thumbIcon(b === down));
      b.type = 'button';
      b.setAttribute('aria-label', label);
      b.title = label;
      b.setAttribute('aria-pressed', 'false');
    }
    const status = row.appendChild(node('span', 'rate-status'));
    status.setAttribute('role', 'status');
    const box = row.appendChild(node('form', 'comment'));
    box.hidden = true;
    const boxID = 'ga-comment-' + exchange + '-' + Math.random().toString(36).slice(2, 8);
    const label = box.appendChild(node('label', '', T.commentLabel));
    label.htmlFor = boxID;
    const text = box.appendChild(node('textarea'));
    text.id = boxID;
    text.rows = 2;
    text.maxLength = 1000;
    const actions = box.appendChild(node('div', 'comment-actions'));
    const sendIt = actions.appendChild(node('button', 'send', T.commentSend));
    sendIt.type = 'submit';
    const cancel = actions.appendChild(node('button', 'cancel', T.commentCancel));
    cancel.type = 'button';

    async function rate(rating, comment) {
      const body = { session_id: s.session_id, exchange, rating };
      if (comment) body.comment = comment;
      try {
        const res = await call('POST', '/v1/feedback', body, { 'Authorization': 'Bearer ' + s.session_token });
        if (!res.ok) throw new Error('HTTP ' + res.status);
        status.textContent = T.thanks;
        emit('feedback', { exchange, rating, comment: comment || '' });
      } catch (err) {
        status.textContent = T.rateFailed;
        emit('error', { message: err.message });
      }
    }
    function press(b) {
      up.setAttribute('aria-pressed', String(b === up));
      down.setAttribute('aria-pressed', String(b === down));
    }
    up.addEventListener('click', () => {
      press(up);
      box.hidden = true;
      rate('up');
    });
    down.addEventListener('click', () => {
      press(down);
      box.hidden = false;
      text.focus();
      rate('down');
    });
    box.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const comment = text.value.trim().slice(0, 1000);
      box.hidden = true;
      down.focus();
      if (comment) rate('down', comment);
    });
    cancel.addEventListener('click', () => { box.hidden = true; down.focus(); });
    box.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        ev.stopPropagation();
        box.hidden = true;
        down.focus();
      }
    });
    return row;
  }

  Bubble.prototype.fail = function (text) {
    this.typing.hidden = true;
    this.done = true;
    this.li.classList.add('error');
    this.li.appendChild(node('p', 'note', text));
    live.textContent = text;
  };

  function setBusy(busy) {
    sendBtn.hidden = busy;
    stopBtn.hidden = !busy;
    input.disabled = busy;
  }

  async function send(text) {
    text = String(text || '').trim().slice(0, 4000);
    if (!text || inFlight) return;
    const you = log.appendChild(node('li', 'msg user'));
    you.appendChild(node('span', 'sr-only', T.you + ': '));
    you.appendChild(node('div', 'text', text));
    const bubble = new Bubble();
    bubble.question = you;
    hideSuggestions();
    // Keep the question in view: the answer grows below it.
    log.scrollTop = you.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop - 8;
    const controller = new AbortController();
    inFlight = controller;
    setBusy(true);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        const s = await session(attempt > 0);
        bubble.session = s;
        const body = { session_id: s.session_id, message: text, stream: true };
        if (screen) body.screen = screen;
        const res = await call('POST', '/v1/chat', body,
          { 'Accept': 'text/event-stream', 'Authorization': 'Bearer ' + s.session_token }, controller.signal);
        if ((res.status === 401 || res.status === 403 || res.status === 404) && attempt === 0) {
          sessionStorage.removeItem(STORE_KEY); // expired session: start a new one
          continue;
        }
        if (!res.ok) {
          bubble.fail(res.status === 409 || res.status === 429 ? T.busy : T.failed);
          emit('error', { status: res.status });
          return;
        }
        if ((res.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
          await readEvents(res.body, (name, data) => bubble.onEvent(name, data));
        } else {
          bubble.finish(await res.json());
        }
        if (!bubble.done) bubble.fail(T.failed);
        return;
      }
    } catch (err) {
      bubble.fail(err.name === 'AbortError' ? T.stopped : T.failed);
      if (err.name !== 'AbortError') emit('error', { message: err.message });
    } finally {
      inFlight = null;
      setBusy(false);
      input.focus();
    }
  }

  // The greeting and three questions suggested for the current screen,
  // shown until the player asks something.
  let greeting = null;
  let asked = false;
  const ownSuggestions = {};
  function suggestionsFor(name) {
    if (name && ownSuggestions[name]) return ownSuggestions[name];
    const table = SUGGESTIONS[locale] || SUGGESTIONS.en;
    return table[name || ''] || table[''];
  }
  function showSuggestions() {
    if (asked) return;
    if (!greeting) {
      greeting = log.appendChild(node('li', 'msg assistant greeting'));
      greeting.appendChild(node('div', 'text', T.greeting));
      const list = greeting.appendChild(node('ul', 'suggestions'));
      list.setAttribute('aria-label', T.suggestions);
    }
    const list = greeting.querySelector('.suggestions');
    list.replaceChildren();
    for (const q of suggestionsFor(screen && screen.name).slice(0, 3)) {
      const b = list.appendChild(node('li')).appendChild(node('button', 'suggestion', q));
      b.type = 'button';
      b.addEventListener('click', () => send(q));
    }
  }
  function hideSuggestions() {
    asked = true;
    if (greeting) {
      const list = greeting.querySelector('.suggestions');
      if (list) list.remove();
    }
  }

  function open() {
    if (!panel.hidden) return;
    showSuggestions();
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    input.focus();
    emit('open', {});
  }

  function close() {
    if (panel.hidden) return;
    panel.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    launcher.focus();
    emit('close', {});
  }

  launcher.addEventListener('click', () => (panel.hidden ? open() : close()));
  closeBtn.addEventListener('click', close);
  panel.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') close(); });
  stopBtn.addEventListener('click', () => { if (inFlight) inFlight.abort(); });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value;
    input.value = '';
    send(text);
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });

  const api = {
    version: 1,
    // setScreen tells the assistant which screen the player is on; the next
    // question carries it. data must be a plain object (or omitted).
    setScreen(name, data) {
      if (name === null || name === undefined || name === '') {
        screen = null;
      } else {
        if (typeof name !== 'string') throw new TypeError('gameassist.setScreen: name must be a string');
        if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) {
          throw new TypeError('gameassist.setScreen: data must be an object');
        }
        screen = { name, data: JSON.parse(JSON.stringify(data || {})) };
      }
      if (greeting) showSuggestions();
      emit('screen', screen);
    },
    // setSuggestions sets the three questions suggested on a screen.
    setSuggestions(name, questions) {
      if (typeof name !== 'string' || !Array.isArray(questions) || !questions.every((q) => typeof q === 'string')) {
        throw new TypeError('gameassist.setSuggestions: a screen name and a list of questions');
      }
      ownSuggestions[name] = questions.slice(0, 3);
      if (greeting) showSuggestions();
    },
    open,
    close,
    // ask opens the panel and sends text as the player's question; it
    // resolves when the answer is complete.
    ask(text) { open(); return send(text); },
    on(name, fn) {
      if (typeof fn !== 'function') throw new TypeError('gameassist.on: fn must be a function');
      (listeners[name] = listeners[name] || []).push(fn);
    },
    off(name, fn) {
      listeners[name] = (listeners[name] || []).filter((f) => f !== fn);
    },
  };
  window.gameassist = api;
  (document.body || document.documentElement).appendChild(host);
  for (const [method, ...args] of queued) {
    if (typeof api[method] === 'function') api[method](...args);
  }
  emit('ready', { locale });
})();
