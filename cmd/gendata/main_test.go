package main

import (
	"bytes"
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameassist/gameassist/gamedata"
	"github.com/gameassist/gameassist/gamedata/wiki"
)

func TestBuildDeterministic(t *testing.T) {
	a, err := Build(gamedata.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(gamedata.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(a.Data, b.Data, bytes.Equal) || !maps.EqualFunc(a.Content, b.Content, bytes.Equal) {
		t.Fatal("two builds differ")
	}
}

// The files committed under data/ and content/ must equal a fresh build.
func TestCommittedFilesMatchGenerator(t *testing.T) {
	out, err := Build(gamedata.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..")
	for name, want := range out.Data {
		got, err := os.ReadFile(filepath.Join(root, "data", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("data/%s differs from the generator; run: go run ./cmd/gendata", name)
		}
	}
	onDisk := map[string]bool{}
	for _, c := range wiki.Categories() {
		entries, err := os.ReadDir(filepath.Join(root, "content", c.Dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".md") {
				onDisk[c.Dir+"/"+e.Name()] = true
			}
		}
	}
	for p, want := range out.Content {
		got, err := os.ReadFile(filepath.Join(root, "content", filepath.FromSlash(p)))
		if err != nil {
			t.Errorf("content/%s: %v", p, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("content/%s differs from the generator; run: go run ./cmd/gendata", p)
		}
		delete(onDisk, p)
	}
	if len(onDisk) > 0 {
		t.Errorf("stale content files: %v", slices.Sorted(maps.Keys(onDisk)))
	}
}

func TestRunWritesIdenticalTreesAndPrunes(t *testing.T) {
	dir := t.TempDir()
	dataDir, contentDir := filepath.Join(dir, "data"), filepath.Join(dir, "content")
	args := []string{"-out", dataDir, "-content", contentDir}
	if err := run(context.Background(), args, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, dir)
	stale := filepath.Join(contentDir, "champions", "nobody.md")
	keep := filepath.Join(contentDir, "champions", "notes.txt")
	for _, p := range []string{stale, keep} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(context.Background(), args, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("stale markdown file was not pruned")
	}
	if _, err := os.Stat(keep); err != nil {
		t.Error("non-markdown file was removed")
	}
	if err := os.Remove(keep); err != nil {
		t.Fatal(err)
	}
	if second := snapshot(t, dir); !maps.EqualFunc(first, second, bytes.Equal) {
		t.Fatal("second run wrote different files")
	}
	if len(first) < 150+15+12+12+11+40+20+5+2 {
		t.Errorf("only %d files written", len(first))
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"unknown flag", []string{"-bogus"}},
		{"bad seed", []string{"-seed", "abc"}},
		{"extra argument", []string{"now"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := run(context.Background(), tt.args, io.Discard); err == nil {
				t.Fatal("run accepted bad arguments")
			}
		})
	}
}

func TestRunOtherSeedDiffers(t *testing.T) {
	a, err := Build(1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(gamedata.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Data["game.json"], b.Data["game.json"]) {
		t.Fatal("seed has no effect")
	}
}

func snapshot(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
