// The demo page: a mock game whose screens tell the widget where the player
// is, as a real game client would with gameassist.setScreen.
'use strict';

(function () {
  // Screens of the sample game: what the player sees, and the data the
  // game client would send for each choice.
  const SCREENS = {
    MainMenuPresenter: {
      title: 'Home', text: 'Welcome back, commander.',
      cards: [{ label: 'Daily quests', sub: '3 left', data: { PlayerLevel: 27 } }],
    },
    ChampionFeatureModelsPresenter: {
      title: 'Champion', text: 'Pick a champion to see their details.',
      cards: [
        { label: 'Kaelith', sub: 'Level 50 · 5★', data: { ChampionConfigId: 1001, Level: 50, Stars: 5 } },
        { label: 'Vonoelle', sub: 'Level 40 · 4★', data: { ChampionConfigId: 1002, Level: 40, Stars: 4 } },
        { label: 'Sediek', sub: 'Level 30 · 3★', data: { ChampionConfigId: 1003, Level: 30, Stars: 3 } },
      ],
    },
    BossBattlePresenter: {
      title: 'Boss battle', text: 'Choose the boss to fight.',
      cards: [
        { label: 'Fire Knight', sub: 'Phase 2', data: { BossConfigId: 5001, Phase: 2, Team: [1001, 1002, 1003, 1004] } },
        { label: 'Frost Wyrm', sub: 'Phase 1', data: { BossConfigId: 5002, Phase: 1, Team: [1001, 1002, 1003, 1004] } },
      ],
    },
    DungeonSelectPresenter: {
      title: 'Dungeons', text: 'Where to next?',
      cards: [
        { label: "Fire Knight's Castle", sub: 'Stage 10', data: { DungeonConfigId: 7001, Stage: 10 } },
        { label: 'Glacier Spire', sub: 'Stage 5', data: { DungeonConfigId: 7002, Stage: 5 } },
      ],
    },
    GearInventoryPresenter: {
      title: 'Gear', text: 'Your gear sets.',
      cards: [
        { label: 'Swiftwind', sub: 'on Vonoelle', data: { GearSetConfigId: 8001, Champion: { ConfigId: 1002 } } },
        { label: 'Warlord', sub: 'unequipped', data: { GearSetConfigId: 8002 } },
      ],
    },
  };

  // The widget may load after this script: queue calls until it is there.
  window.gameassist = window.gameassist || { q: [] };
  function setScreen(name, data) {
    if (window.gameassist.version) window.gameassist.setScreen(name, data);
    else window.gameassist.q.push(['setScreen', name, data]);
  }

  const $ = (id) => document.getElementById(id);
  const tabs = document.querySelectorAll('.tabs button');

  function press(buttons, pressed) {
    for (const b of buttons) b.setAttribute('aria-pressed', String(b === pressed));
  }

  function show(name) {
    const s = SCREENS[name];
    $('scene-title').textContent = s.title;
    $('scene-text').textContent = s.text;
    const list = $('scene-cards');
    list.replaceChildren();
    const buttons = [];
    for (const card of s.cards) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = card.label;
      const sub = document.createElement('small');
      sub.textContent = card.sub;
      b.appendChild(sub);
      b.addEventListener('click', () => {
        press(buttons, b);
        setScreen(name, card.data);
      });
      buttons.push(b);
      list.appendChild(document.createElement('li')).appendChild(b);
    }
    press(tabs, [...tabs].find((t) => t.dataset.screen === name));
    press(buttons, buttons[0]);
    setScreen(name, s.cards[0].data);
  }

  for (const t of tabs) t.addEventListener('click', () => show(t.dataset.screen));
  show('ChampionFeatureModelsPresenter');
})();
