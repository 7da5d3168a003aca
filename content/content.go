// Package content embeds the sample game's RAG documents (markdown with
// front matter), so the binary indexes them from any directory; CONTENT_DIR
// points at a studio's own documents instead.
package content

import (
	"embed"
	"io/fs"
)

//go:embed bosses champions dungeons factions faq lore mechanics patch_notes ux glossary.json
var docs embed.FS

// FS returns the embedded sample documents, rooted at the content directory.
func FS() fs.FS { return docs }
