package tool

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// CheckArgs proves that a typed tool's JSON Schema and its argument struct
// agree: every schema property maps to a struct field by json tag and every
// tagged field to a property, recursively through nested objects whose field
// is a struct. Tests call it for every built-in tool, so a property added to a
// schema file without a field (or the reverse) fails the build's tests.
func CheckArgs(t Typed) error {
	spec := t.Spec()
	var schema map[string]any
	doc := spec.Parameters
	if len(doc) == 0 {
		doc = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	if err := json.Unmarshal(doc, &schema); err != nil {
		return fmt.Errorf("tool %s: schema: %w", spec.Name, err)
	}
	var problems []string
	checkObject(spec.Name, "arguments", schema, t.ArgsType(), &problems)
	if len(problems) > 0 {
		return fmt.Errorf("tool %s: %s", spec.Name, strings.Join(problems, "; "))
	}
	return nil
}

func checkObject(name, path string, schema map[string]any, typ reflect.Type, problems *[]string) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		*problems = append(*problems, fmt.Sprintf("%s decodes into %s, not a struct", path, typ))
		return
	}
	props, _ := schema["properties"].(map[string]any)
	fields := jsonFields(typ)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f, ok := fields[k]
		if !ok {
			*problems = append(*problems, fmt.Sprintf("schema property %s.%s has no struct field", path, k))
			continue
		}
		sub, _ := props[k].(map[string]any)
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if _, nested := sub["properties"]; nested && ft.Kind() == reflect.Struct {
			checkObject(name, path+"."+k, sub, ft, problems)
		}
	}
	fieldNames := make([]string, 0, len(fields))
	for k := range fields {
		fieldNames = append(fieldNames, k)
	}
	sort.Strings(fieldNames)
	for _, k := range fieldNames {
		if _, ok := props[k]; !ok {
			*problems = append(*problems, fmt.Sprintf("struct field %s.%s (%s) has no schema property", path, k, fields[k].Name))
		}
	}
}

// jsonFields maps the json names of typ's exported fields, embedded structs
// flattened as encoding/json does.
func jsonFields(typ reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					if _, taken := out[k]; !taken {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}
