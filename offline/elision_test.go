package offline_test

import (
	"strings"
	"testing"

	"github.com/gameassist/gameassist/offline"
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

// A question in the game's own terms of another language ("jauge de tour",
// "Zugleiste": the content's glossary) is about the game and searches the
// documents, which the glossary lets it find; without the glossary the
// same question is turned away.
func TestGlossaryTermsAreGameWords(t *testing.T) {
	w := newSampleWorld(t)
	bare, err := offline.New(w.exec, offline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct{ locale, msg, doc string }{
		{"fr", "comment fonctionne la jauge de tour ?", "Turn Meter"},
		{"de", "wie funktioniert die Zugleiste?", "Turn Meter"},
	} {
		a := w.ask(t, q.locale, nil, q.msg)
		if a.Plan.Intent != offline.IntentKnowledge || !strings.Contains(a.Text, "turn") && !strings.Contains(a.Text, q.doc) {
			t.Errorf("%s %q: intent %s (answer %q)", q.locale, q.msg, a.Plan.Intent, a.Text)
		}
		if b := bare.Answer(t.Context(), offline.Request{Message: q.msg, Locale: q.locale}, nil); b.Plan.Intent != offline.IntentOffTopic {
			t.Errorf("%s %q without the glossary: intent %s, want %s", q.locale, q.msg, b.Plan.Intent, offline.IntentOffTopic)
		}
	}
}
