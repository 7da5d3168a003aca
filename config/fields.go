package config

import (
	"fmt"
	"log/slog"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Field is one setting as Config's tags declare it.
type Field struct {
	// Env are the variables, the first one set winning.
	Env []string
	// Default is the value when unset, as written in the tag ("" for none);
	// Shown is how docs show the default when it is not a literal value.
	Default, Shown string
	// Min and Max bound a whole number (Ranged says they apply).
	Min, Max int
	Ranged   bool
	// OneOf lists the allowed words of a setting that takes one.
	OneOf []string
	// Mask is "secret", "url" or "".
	Mask string
	// Log is the start-up log's key.
	Log string
	// Doc describes the setting.
	Doc string
	// Kind is the value's type as docs name it: text, whole number, true or
	// false, duration, list, level, prices.
	Kind  string
	index int
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	levelType    = reflect.TypeFor[slog.Level]()
	pricesType   = reflect.TypeFor[map[string]Price]()
)

// Fields lists Config's settings in declaration order, read from its tags;
// it fails on a tag it cannot read or a field of a type it cannot load.
func Fields() ([]Field, error) {
	t := reflect.TypeFor[Config]()
	out := make([]Field, 0, t.NumField())
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag
		f := Field{
			Env: strings.Split(tag.Get("env"), ","), Default: tag.Get("default"), Shown: tag.Get("shown"),
			Mask: tag.Get("mask"), Log: tag.Get("log"), Doc: tag.Get("doc"), index: i,
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("config: field %s: %s", sf.Name, fmt.Sprintf(format, args...))
		}
		if tag.Get("env") == "" || f.Doc == "" {
			return nil, bad("needs env and doc tags")
		}
		if f.Log == "" {
			f.Log = strings.ToLower(f.Env[0])
		}
		if o := tag.Get("oneof"); o != "" {
			f.OneOf = strings.Split(o, ",")
		}
		switch f.Mask {
		case "", "secret", "url":
		default:
			return nil, bad("mask %q is not secret or url", f.Mask)
		}
		if lo, hi := tag.Get("min"), tag.Get("max"); lo != "" || hi != "" {
			var err1, err2 error
			f.Min, err1 = strconv.Atoi(lo)
			f.Max, err2 = strconv.Atoi(hi)
			if err1 != nil || err2 != nil || f.Min > f.Max {
				return nil, bad("min %q and max %q are not a range", lo, hi)
			}
			f.Ranged = true
		}
		switch {
		case sf.Type == durationType:
			f.Kind = "duration"
		case sf.Type == levelType:
			f.Kind = "level"
		case sf.Type == pricesType:
			f.Kind = "prices"
		case sf.Type.Kind() == reflect.String:
			f.Kind = "text"
		case sf.Type.Kind() == reflect.Int:
			f.Kind = "whole number"
			if !f.Ranged {
				return nil, bad("a whole number needs min and max")
			}
		case sf.Type.Kind() == reflect.Bool:
			f.Kind = "true or false"
		case sf.Type == reflect.TypeFor[[]string]():
			f.Kind = "list"
		default:
			return nil, bad("type %s cannot be loaded", sf.Type)
		}
		if f.Default != "" {
			// The default must be a value the setting accepts.
			p := parser{getenv: func(string) string { return f.Default }}
			p.set(reflect.New(sf.Type).Elem(), Field{Env: f.Env[:1], Min: f.Min, Max: f.Max, Ranged: f.Ranged, OneOf: f.OneOf, Kind: f.Kind})
			if len(p.errs) > 0 {
				return nil, bad("default: %v", p.errs[0])
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// set loads field v from the first of f.Env that is set, else f.Default,
// recording a bad value in p.errs.
func (p *parser) set(v reflect.Value, f Field) {
	name, raw := f.Env[len(f.Env)-1], ""
	for _, n := range f.Env {
		if s := strings.TrimSpace(p.getenv(n)); s != "" {
			name, raw = n, s
			break
		}
	}
	if raw == "" {
		raw = f.Default
	}
	if raw == "" && f.Kind != "prices" {
		return
	}
	fail := func(format string, args ...any) {
		p.errs = append(p.errs, fmt.Errorf("%s: %q "+format, append([]any{name, raw}, args...)...))
	}
	switch f.Kind {
	case "text":
		if f.OneOf != nil {
			raw = strings.ToLower(raw)
			if !slices.Contains(f.OneOf, raw) {
				fail("is not one of %s", strings.Join(f.OneOf, ", "))
				return
			}
		}
		v.SetString(raw)
	case "whole number":
		n, err := strconv.Atoi(raw)
		if err != nil || n < f.Min || n > f.Max {
			fail("is not a whole number from %d to %d", f.Min, f.Max)
			return
		}
		v.SetInt(int64(n))
	case "true or false":
		b, err := strconv.ParseBool(raw)
		if err != nil {
			fail("is not true or false")
			return
		}
		v.SetBool(b)
	case "duration":
		d, err := time.ParseDuration(raw)
		if err != nil || d <= 0 {
			fail("is not a positive duration such as 30s or 24h")
			return
		}
		v.SetInt(int64(d))
	case "level":
		var l slog.Level
		if err := l.UnmarshalText([]byte(raw)); err != nil {
			fail("is not debug, info, warn or error")
			return
		}
		v.SetInt(int64(l))
	case "list":
		v.Set(reflect.ValueOf(list(raw)))
	case "prices":
		v.Set(reflect.ValueOf(p.prices(name, raw)))
	}
}

// attr is field v as the start-up log shows it, masked as f says.
func (f Field) attr(v reflect.Value) slog.Attr {
	switch f.Kind {
	case "whole number":
		return slog.Int(f.Log, int(v.Int()))
	case "true or false":
		return slog.Bool(f.Log, v.Bool())
	case "duration":
		return slog.Duration(f.Log, time.Duration(v.Int()))
	case "level":
		return slog.String(f.Log, slog.Level(v.Int()).String())
	case "list":
		return slog.String(f.Log, strings.Join(v.Interface().([]string), ","))
	case "prices":
		m := v.Interface().(map[string]Price)
		var items []string
		for _, model := range slices.Sorted(maps.Keys(m)) {
			items = append(items, fmt.Sprintf("%s=%g/%g", model, m[model].Input, m[model].Output))
		}
		return slog.String(f.Log, strings.Join(items, ","))
	}
	s := v.String()
	switch f.Mask {
	case "secret":
		s = mask(s)
	case "url":
		s = maskURL(s)
	}
	return slog.String(f.Log, s)
}
