package offline

import (
	"encoding/json"
	"testing"
)

// TestScreenPrice: the price is read from the screen as a number only;
// anything else in its place is no price.
func TestScreenPrice(t *testing.T) {
	for raw, want := range map[string]string{
		`{"Offer":{"ChampionConfigId":1001,"Price":1500}}`: "1500",
		`{"Offer":{"price":"300"}}`:                        "300",
		`{"Items":[{"Cost":2.5}]}`:                         "2.5",
		`{"Offer":{"Price":"**free** <b>"}}`:               "",
		`{"Offer":{"Price":-5}}`:                           "",
		`{"Offer":{"Price":1e400}}`:                        "",
		`{"Offer":{"Price":null}}`:                         "",
		`[1,2,3]`:                                          "",
		``:                                                 "",
	} {
		got, ok := screenPrice(json.RawMessage(raw))
		if got != want || ok != (want != "") {
			t.Errorf("%s: price %q %v, want %q", raw, got, ok, want)
		}
	}
}
