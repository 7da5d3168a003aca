package config_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gameassist/gameassist/config"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.GCSDBPath != "./data/gcs.db" || c.SessionTTL != 24*time.Hour ||
		c.MaxToolIterations != 5 || c.ChatRatePerMinute != 30 || c.SQLToolsForLLM || c.LLMEnabled() ||
		c.MCPToken != "" || c.MCPRatePerMinute != 300 ||
		c.ToolSelection != "auto" || c.MaxToolsPerCall != 10 ||
		c.MaxToolCallsPerRound != 16 || c.WebhookTolerance != 5*time.Minute {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestLoadValues(t *testing.T) {
	c, err := config.Load(env(map[string]string{
		"ADDR": ":9090", "SESSION_TTL": "2h", "MAX_TOOL_ITERATIONS": "3", "SQL_TOOLS_FOR_LLM": "true",
		"ALLOWED_ORIGINS": " https://a.example , https://b.example ,", "LOG_LEVEL": "debug",
		"OPENAI_BASE_URL": "http://localhost:11434/v1", "TOOL_SELECTION": "all", "MAX_TOOLS_PER_CALL": "6",
		"MAX_TOOL_CALLS_PER_ROUND": "4", "WEBHOOK_TOLERANCE": "90s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9090" || c.SessionTTL != 2*time.Hour || c.MaxToolIterations != 3 || !c.SQLToolsForLLM ||
		len(c.AllowedOrigins) != 2 || c.LogLevel != slog.LevelDebug || !c.LLMEnabled() ||
		c.ToolSelection != "all" || c.MaxToolsPerCall != 6 ||
		c.MaxToolCallsPerRound != 4 || c.WebhookTolerance != 90*time.Second {
		t.Fatalf("values: %+v", c)
	}
}

func TestPlayerStateSettings(t *testing.T) {
	c, err := config.Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.PlayerStateTTL != 30*24*time.Hour || c.ProgressPath != "progress.chapter" {
		t.Fatalf("defaults: ttl %s, progress path %q", c.PlayerStateTTL, c.ProgressPath)
	}
	c, err = config.Load(env(map[string]string{"PLAYER_STATE_TTL": "72h", "PROGRESS_PATH": "story.act"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.PlayerStateTTL != 72*time.Hour || c.ProgressPath != "story.act" {
		t.Fatalf("values: ttl %s, progress path %q", c.PlayerStateTTL, c.ProgressPath)
	}
}

func TestEvalPrices(t *testing.T) {
	c, err := config.Load(env(map[string]string{"EVAL_PRICES": "llama3.1=0/0, gpt-4o-mini=0.2/0.8"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.EvalPrices["llama3.1"]; got != (config.Price{}) {
		t.Errorf("llama3.1 = %+v", got)
	}
	if got := c.EvalPrices["gpt-4o-mini"]; got != (config.Price{Input: 0.2, Output: 0.8}) {
		t.Errorf("override = %+v", got)
	}
	if got := c.EvalPrices["gpt-4o"]; got != config.DefaultEvalPrices()["gpt-4o"] {
		t.Errorf("default kept = %+v", got)
	}
}

func TestLoadRefusesBadValues(t *testing.T) {
	tests := []struct {
		name, key, value string
	}{
		{name: "iterations not a number", key: "MAX_TOOL_ITERATIONS", value: "five"},
		{name: "iterations out of range", key: "MAX_TOOL_ITERATIONS", value: "0"},
		{name: "negative ttl", key: "SESSION_TTL", value: "-1h"},
		{name: "ttl without unit", key: "SESSION_TTL", value: "24"},
		{name: "bool", key: "SQL_TOOLS_FOR_LLM", value: "yes please"},
		{name: "log level", key: "LOG_LEVEL", value: "loud"},
		{name: "relative qdrant url", key: "QDRANT_URL", value: "localhost"},
		{name: "rate", key: "CHAT_RATE_PER_MINUTE", value: "-3"},
		{name: "trusted proxy", key: "TRUSTED_PROXIES", value: "10.0.0.0/8,lb.example"},
		{name: "mcp rate", key: "MCP_RATE_PER_MINUTE", value: "0"},
		{name: "tool selection", key: "TOOL_SELECTION", value: "some"},
		{name: "tools per call too few", key: "MAX_TOOLS_PER_CALL", value: "1"},
		{name: "tool calls per round zero", key: "MAX_TOOL_CALLS_PER_ROUND", value: "0"},
		{name: "tool calls per round huge", key: "MAX_TOOL_CALLS_PER_ROUND", value: "100000"},
		{name: "webhook tolerance", key: "WEBHOOK_TOLERANCE", value: "5"},
		{name: "player state ttl too short", key: "PLAYER_STATE_TTL", value: "1s"},
		{name: "progress path with a brace", key: "PROGRESS_PATH", value: "progress.{chapter}"},
		{name: "progress path with an empty segment", key: "PROGRESS_PATH", value: "progress..chapter"},
		{name: "eval price without slash", key: "EVAL_PRICES", value: "llama3=0.1"},
		{name: "eval price negative", key: "EVAL_PRICES", value: "llama3=-1/0"},
		{name: "eval price without model", key: "EVAL_PRICES", value: "=1/2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Load(env(map[string]string{tt.key: tt.value}))
			if err == nil || !strings.Contains(err.Error(), tt.key) {
				t.Fatalf("err = %v, want one naming %s", err, tt.key)
			}
		})
	}
}

func TestLogValueMasksSecrets(t *testing.T) {
	c, err := config.Load(env(map[string]string{
		"OPENAI_API_KEY": "sk-live-secret", "ADMIN_TOKEN": "admin-secret", "WEBHOOK_SECRET": "hook-secret",
		"QDRANT_API_KEY": "qdrant-secret", "REDIS_URL": "redis://user:redis-secret@localhost:6379/0",
		"MCP_TOKEN": "mcp-secret",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	slog.New(slog.NewJSONHandler(&b, nil)).Info("config", "config", c)
	for _, secret := range []string{"sk-live-secret", "admin-secret", "hook-secret", "qdrant-secret", "redis-secret", "mcp-secret"} {
		if strings.Contains(b.String(), secret) {
			t.Errorf("log contains %q: %s", secret, b.String())
		}
	}
}

func TestTracingAndLogFormat(t *testing.T) {
	tests := []struct {
		name                    string
		env                     map[string]string
		wantEndpoint, wantProto string
		wantFormat, wantErr     string
	}{
		{name: "defaults: tracing off, log format auto", wantProto: "http/protobuf", wantFormat: "auto"},
		{
			name:         "general endpoint and protocol",
			env:          map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "LOG_FORMAT": "json"},
			wantEndpoint: "http://otel:4318", wantProto: "grpc", wantFormat: "json",
		},
		{
			name: "traces variables win",
			env: map[string]string{
				"OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4318/v1/traces",
				"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf",
			},
			wantEndpoint: "http://traces:4318/v1/traces", wantProto: "http/protobuf", wantFormat: "auto",
		},
		{name: "SDK disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_SDK_DISABLED": "true"}, wantProto: "http/protobuf", wantFormat: "auto"},
		{name: "traces exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_TRACES_EXPORTER": "none"}, wantProto: "http/protobuf", wantFormat: "auto"},
		{name: "endpoint without scheme", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "otel:4318"}, wantErr: "OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT"},
		{name: "unknown protocol", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, wantErr: "OTEL_EXPORTER_OTLP_PROTOCOL"},
		{name: "unknown log format", env: map[string]string{"LOG_FORMAT": "xml"}, wantErr: "LOG_FORMAT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Load(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.OTelEndpoint != tt.wantEndpoint || c.OTelProtocol != tt.wantProto || c.LogFormat != tt.wantFormat {
				t.Fatalf("endpoint %q protocol %q format %q", c.OTelEndpoint, c.OTelProtocol, c.LogFormat)
			}
		})
	}
}

func TestFeedbackMax(t *testing.T) {
	c, err := config.Load(env(nil))
	if err != nil || c.FeedbackMax != 100_000 {
		t.Fatalf("default FEEDBACK_MAX = %d, %v; want 100000", c.FeedbackMax, err)
	}
	if c, err = config.Load(env(map[string]string{"FEEDBACK_MAX": "500"})); err != nil || c.FeedbackMax != 500 {
		t.Fatalf("FEEDBACK_MAX=500: %d, %v", c.FeedbackMax, err)
	}
	for _, v := range []string{"0", "-1", "lots"} {
		if _, err := config.Load(env(map[string]string{"FEEDBACK_MAX": v})); err == nil || !strings.Contains(err.Error(), "FEEDBACK_MAX") {
			t.Errorf("FEEDBACK_MAX=%s: err = %v, want one naming it", v, err)
		}
	}
}
