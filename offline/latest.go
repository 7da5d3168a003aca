package offline

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gameassist/gameassist/tool"
	toolsrag "github.com/gameassist/gameassist/tools_rag"
)

// "The last patch" is the newest patch notes document by version (then
// date), named in the answer: the responder lists the patch notes, picks
// the newest and reads it, rather than trusting a text search to rank it.

const (
	toolListDocs = "rag_list_documents"
	toolDocument = "rag_get_document"
)

// wordsLatest ask for the newest of something.
//
//nolint:misspell // French and German words, not misspelt English
var wordsLatest = phrases(`last|latest|newest|most recent|recent|current|new|
	dernier|derniere|derniers|plus recent|plus recente|actuel|actuelle|nouveau|nouvelle|
	letzte|letzten|letzter|neueste|neuesten|neuester|aktuelle|aktuellen|neue`)

// patchVersion reads "1.5.0" from a patch document's title or id.
var patchVersion = regexp.MustCompile(`(\d+)[.-](\d+)(?:[.-](\d+))?`)

// releaseDate reads a release date from patch notes text.
var releaseDate = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`)

// version is a parsed patch version.
type version [3]int

func parseVersion(s string) (version, bool) {
	m := patchVersion.FindStringSubmatch(s)
	if m == nil {
		return version{}, false
	}
	var v version
	for i := range 3 {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, true
}

// latestPatch picks the newest patch notes document of a list result,
// preferring the session's locale among documents of the same version.
func latestPatch(r tool.Result, locale string) (toolsrag.DocumentInfo, bool) {
	list, ok := dataAs[toolsrag.DocumentList](r)
	if !ok {
		return toolsrag.DocumentInfo{}, false
	}
	var best toolsrag.DocumentInfo
	var bestV version
	found := false
	for _, d := range list.Documents {
		if d.Category != "patch_notes" {
			continue
		}
		v, ok := parseVersion(d.Title)
		if !ok {
			v, ok = parseVersion(d.DocID)
		}
		if !ok {
			continue
		}
		c := slices.Compare(v[:], bestV[:])
		if !found || c > 0 || c == 0 && d.Locale == locale && best.Locale != locale {
			best, bestV, found = d, v, true
		}
	}
	return best, found
}

// answerLatestPatch runs the second step of a latest-patch question: the
// newest document of the list the plan fetched.
func (r *Responder) answerLatestPatch(ctx context.Context, p Plan, outs []tool.Outcome, run RunFunc) []tool.Outcome {
	for _, o := range outs {
		if o.Name != toolListDocs || !o.Result.OK() {
			continue
		}
		d, ok := latestPatch(o.Result, p.Locale)
		if !ok || !r.names[toolDocument] || !r.params[toolDocument]["document_id"] {
			return outs
		}
		call := tool.Call{Name: toolDocument, Arguments: argsOf(map[string]any{"document_id": d.DocID})}
		return append(outs, run(ctx, []tool.Call{call})...)
	}
	return outs
}

// latestPatchReply names the newest patch and quotes its highlights.
func (rd renderer) latestPatchReply() reply {
	o, ok := rd.one(toolDocument)
	if !ok {
		if lo, ok := rd.one(toolListDocs); ok && !lo.Result.OK() {
			return rd.failed(lo)
		}
		return reply{lead: rd.l.t(mNothingFound)}
	}
	if !o.Result.OK() {
		return rd.failed(o)
	}
	doc, ok := dataAs[toolsrag.Document](o.Result)
	if !ok {
		return reply{lead: rd.l.t(mNothingFound)}
	}
	title := strings.TrimSpace(strings.TrimPrefix(doc.Title, "Patch "))
	date := ""
	for _, s := range doc.Sections {
		if m := releaseDate.FindString(s.Text); m != "" {
			date = m
			break
		}
	}
	var rp reply
	if date != "" {
		rp.lead = rd.l.s("patch_latest_date", title, date)
	} else {
		rp.lead = rd.l.s("patch_latest", title)
	}
	secs := slices.Clone(doc.Sections)
	// Highlights first, then the rest in document order.
	slices.SortStableFunc(secs, func(a, b toolsrag.Section) int {
		return cmp.Compare(rank(a.Section), rank(b.Section))
	})
	for _, s := range secs {
		for _, b := range plainBlocks(s.Text) {
			if releaseDate.MatchString(b) && strings.Contains(strings.ToLower(b), "version") {
				continue
			}
			rp.facts = append(rp.facts, b)
		}
	}
	return rp
}

func rank(section string) int {
	if strings.Contains(strings.ToLower(section), "highlight") {
		return 0
	}
	return 1
}
