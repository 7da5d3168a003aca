package offline_test

import (
	"testing"

	"github.com/gameassist/gameassist/chat/offline"
)

// French questions whose game word is elided ("d'énergie", "l'affinité")
// or German ones on a mechanic are game questions: they search the
// documents instead of being turned away as off-topic.
func TestElidedAndLocalizedGameWordsAreNotOffTopic(t *testing.T) {
	w := newSampleWorld(t)
	for _, q := range []struct{ locale, msg string }{
		{"fr", "comment obtenir plus d'énergie ?"},
		{"fr", "c'est quoi l'affinité ?"},
		{"de", "was macht die Affinität?"},
		{"de", "wie funktioniert ein Schild?"},
	} {
		a := w.ask(t, q.locale, nil, q.msg)
		if a.Plan.Intent != offline.IntentKnowledge {
			t.Errorf("%s %q: intent %s, want %s (answer %q)", q.locale, q.msg, a.Plan.Intent, offline.IntentKnowledge, a.Text)
		}
	}
}
