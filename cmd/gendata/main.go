// Command gendata writes the sample game (data/game.json), its wiki
// (content/*/*.md) and the retrieval evaluation set (data/rag_eval.json),
// all generated deterministically from one seed.
//
//	go run ./cmd/gendata [-seed 20261121] [-out data] [-content content]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gamedata/wiki"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
}

// Output is everything gendata writes, keyed by path relative to its root.
type Output struct {
	Data    map[string][]byte // relative to -out
	Content map[string][]byte // relative to -content
}

// Build generates every file for seed without touching the disk.
func Build(seed int64) (Output, error) {
	g := gamedata.Generate(seed)
	if err := gamedata.Validate(g); err != nil {
		return Output{}, fmt.Errorf("generated game is invalid: %w", err)
	}
	game, err := gamedata.EncodeJSON(g)
	if err != nil {
		return Output{}, fmt.Errorf("encode game: %w", err)
	}
	docs, err := wiki.Render(g)
	if err != nil {
		return Output{}, err
	}
	evalSet, err := wiki.EvalSet(g, docs)
	if err != nil {
		return Output{}, err
	}
	eval, err := gamedata.EncodeJSON(evalSet)
	if err != nil {
		return Output{}, fmt.Errorf("encode eval set: %w", err)
	}
	out := Output{
		Data:    map[string][]byte{"game.json": game, "rag_eval.json": eval},
		Content: map[string][]byte{},
	}
	for _, d := range docs {
		out.Content[d.Path] = []byte(d.Markdown())
	}
	return out, nil
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gendata", flag.ContinueOnError)
	fs.SetOutput(stdout)
	seed := fs.Int64("seed", gamedata.DefaultSeed, "generator seed")
	outDir := fs.String("out", "data", "directory for game.json and rag_eval.json")
	contentDir := fs.String("content", "content", "directory for the wiki markdown")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	out, err := Build(*seed)
	if err != nil {
		return err
	}
	if err := writeTree(ctx, *outDir, out.Data); err != nil {
		return err
	}
	if err := pruneContent(*contentDir, out.Content); err != nil {
		return err
	}
	if err := writeTree(ctx, *contentDir, out.Content); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d data files to %s and %d documents to %s (seed %d)\n",
		len(out.Data), *outDir, len(out.Content), *contentDir, *seed)
	return nil
}

// writeTree writes files under root in sorted order, skipping files whose
// content is already identical.
func writeTree(ctx context.Context, root string, files map[string][]byte) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		full := filepath.Join(root, filepath.FromSlash(p))
		if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, files[p]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", full, err)
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", full, err)
		}
	}
	return nil
}

// pruneContent removes stale .md files from the category directories
// gendata owns, so a renamed entity does not leave its old page behind.
// Other files and directories are left alone.
func pruneContent(root string, keep map[string][]byte) error {
	for _, c := range wiki.Categories() {
		dir := filepath.Join(root, c.Dir)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("prune %s: %w", dir, err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			if _, ok := keep[c.Dir+"/"+e.Name()]; ok {
				continue
			}
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("prune %s: %w", dir, err)
			}
		}
	}
	return nil
}
