// Package config reads gameassist's settings from the environment, once, at
// start: it is the only reader of the environment, it validates every value
// and it can log itself with secrets masked.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Config holds every setting of the server.
type Config struct {
	Addr                 string
	RedisURL             string // empty: in-process Redis-compatible server
	GCSDBPath            string
	QdrantURL            string // empty: embedded vector store
	QdrantAPIKey         string
	OpenAIBaseURL        string
	OpenAIAPIKey         string
	OpenAIModel          string // empty with no base URL/key: offline responder
	EmbeddingsModel      string // empty: local hashing embedder
	AdminToken           string // empty: admin routes refuse everything
	WebhookSecret        string // empty: webhook refuses everything
	ScreenRules          string // empty: embedded default rules
	ContentDir           string // empty: the embedded sample documents
	ToolsFile            string // empty: no file tools
	LogLevel             slog.Level
	LogFormat            string // auto (text on a terminal, else JSON), json or text
	SessionTTL           time.Duration
	MaxToolIterations    int
	MaxContextTokens     int
	ChatRatePerMinute    int
	SessionRatePerMinute int
	SQLToolsForLLM       bool
	AllowedOrigins       []string
	TrustedProxies       []string // IPs or CIDRs whose X-Forwarded-For is believed
	ShutdownTimeout      time.Duration
	ToolTimeout          time.Duration
	LLMTimeout           time.Duration
	MaxResultChars       int
	MaxMessageChars      int
	CacheRefresh         time.Duration
	MCPToken             string // empty: /mcp refuses everything
	MCPRatePerMinute     int    // /mcp requests per client IP per minute
	ToolSelection        string // auto: a selected subset of tools per LLM call; all: every tool; deferred: a fixed few, the others described in the conversation
	MaxToolsPerCall      int    // tools offered per LLM call in auto mode, find_tools included
	// MaxToolCallsPerRound caps the tool calls run from one LLM answer.
	MaxToolCallsPerRound int
	// WebhookTolerance is how far a webhook's signed timestamp may be from
	// the server's clock, either way.
	WebhookTolerance time.Duration

	// OTelEndpoint is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else
	// OTEL_EXPORTER_OTLP_ENDPOINT; empty (or OTEL_SDK_DISABLED=true, or
	// OTEL_TRACES_EXPORTER=none) leaves tracing off.
	OTelEndpoint string
	// OTelProtocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else
	// OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf (default) or grpc.
	OTelProtocol string
	// FeedbackMax caps the stream of players' ratings (FEEDBACK_MAX); the
	// oldest are trimmed first.
	FeedbackMax int
	// EvalPrices prices models for `gameassist eval` (EVAL_PRICES), in US
	// dollars per million tokens, over DefaultEvalPrices.
	EvalPrices map[string]Price
}

// Price is a model's price in US dollars per million tokens.
type Price struct {
	Input  float64
	Output float64
}

// DefaultEvalPrices are list prices of common OpenAI models (USD per
// million tokens); EVAL_PRICES adds models or overrides these.
func DefaultEvalPrices() map[string]Price {
	return map[string]Price{
		"gpt-4o-mini":  {Input: 0.15, Output: 0.60},
		"gpt-4o":       {Input: 2.50, Output: 10.00},
		"gpt-4.1-mini": {Input: 0.40, Output: 1.60},
		"gpt-4.1":      {Input: 2.00, Output: 8.00},
	}
}

// LLMEnabled reports whether an OpenAI-compatible endpoint is configured;
// without one, turns are answered by the offline responder.
func (c Config) LLMEnabled() bool {
	return c.OpenAIAPIKey != "" || c.OpenAIBaseURL != ""
}

// Load reads the configuration through getenv (os.Getenv in production, a map
// in tests) and validates it.
func Load(getenv func(string) string) (Config, error) {
	p := parser{getenv: getenv}
	c := Config{
		Addr:                 p.str("ADDR", ":8080"),
		RedisURL:             p.str("REDIS_URL", ""),
		GCSDBPath:            p.str("GCS_DB_PATH", "./data/gcs.db"),
		QdrantURL:            p.str("QDRANT_URL", ""),
		QdrantAPIKey:         p.str("QDRANT_API_KEY", ""),
		OpenAIBaseURL:        p.str("OPENAI_BASE_URL", ""),
		OpenAIAPIKey:         p.str("OPENAI_API_KEY", ""),
		OpenAIModel:          p.str("OPENAI_MODEL", "gpt-4o-mini"),
		EmbeddingsModel:      p.str("EMBEDDINGS_MODEL", ""),
		AdminToken:           p.str("ADMIN_TOKEN", ""),
		WebhookSecret:        p.str("WEBHOOK_SECRET", ""),
		ScreenRules:          p.str("SCREEN_RULES", ""),
		ContentDir:           p.str("CONTENT_DIR", ""),
		ToolsFile:            p.str("TOOLS_FILE", ""),
		LogLevel:             p.level("LOG_LEVEL", slog.LevelInfo),
		LogFormat:            p.oneOf("LOG_FORMAT", "auto", "auto", "json", "text"),
		SessionTTL:           p.duration("SESSION_TTL", 24*time.Hour),
		MaxToolIterations:    p.integer("MAX_TOOL_ITERATIONS", 5, 1, 20),
		MaxContextTokens:     p.integer("MAX_CONTEXT_TOKENS", 6000, 500, 1_000_000),
		ChatRatePerMinute:    p.integer("CHAT_RATE_PER_MINUTE", 30, 1, 100_000),
		SessionRatePerMinute: p.integer("SESSION_RATE_PER_MINUTE", 20, 1, 100_000),
		SQLToolsForLLM:       p.boolean("SQL_TOOLS_FOR_LLM", false),
		AllowedOrigins:       p.list("ALLOWED_ORIGINS"),
		TrustedProxies:       p.list("TRUSTED_PROXIES"),
		ShutdownTimeout:      p.duration("SHUTDOWN_TIMEOUT", 15*time.Second),
		OTelEndpoint:         firstSet(getenv, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"),
		OTelProtocol:         p.oneOf(orName(getenv, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"), "http/protobuf", "http/protobuf", "grpc"),
		ToolTimeout:          p.duration("TOOL_TIMEOUT", 10*time.Second),
		LLMTimeout:           p.duration("LLM_TIMEOUT", 30*time.Second),
		MaxResultChars:       p.integer("MAX_RESULT_CHARS", 8000, 500, 1_000_000),
		MaxMessageChars:      p.integer("MAX_MESSAGE_CHARS", 4000, 1, 100_000),
		CacheRefresh:         p.duration("CACHE_REFRESH", time.Minute),
		MCPToken:             p.str("MCP_TOKEN", ""),
		MCPRatePerMinute:     p.integer("MCP_RATE_PER_MINUTE", 300, 1, 100_000),
		ToolSelection:        p.oneOf("TOOL_SELECTION", "auto", "auto", "all", "deferred"),
		MaxToolsPerCall:      p.integer("MAX_TOOLS_PER_CALL", 10, 2, 128),
		MaxToolCallsPerRound: p.integer("MAX_TOOL_CALLS_PER_ROUND", 16, 1, 128),
		WebhookTolerance:     p.duration("WEBHOOK_TOLERANCE", 5*time.Minute),
		EvalPrices:           p.prices("EVAL_PRICES"),
		FeedbackMax:          p.integer("FEEDBACK_MAX", 100_000, 1, 100_000_000),
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") ||
		strings.EqualFold(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")), "none") {
		c.OTelEndpoint = ""
	}
	if c.OTelEndpoint != "" {
		if pu, err := url.Parse(c.OTelEndpoint); err != nil || pu.Host == "" {
			p.errs = append(p.errs, fmt.Errorf("OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT: %q is not an absolute URL", c.OTelEndpoint))
		}
	}
	if c.RedisURL != "" {
		if _, err := url.Parse(c.RedisURL); err != nil {
			p.errs = append(p.errs, fmt.Errorf("REDIS_URL: %w", err))
		}
	}
	for _, u := range []struct{ name, val string }{{"QDRANT_URL", c.QdrantURL}, {"OPENAI_BASE_URL", c.OpenAIBaseURL}} {
		if u.val == "" {
			continue
		}
		if pu, err := url.Parse(u.val); err != nil || pu.Host == "" {
			p.errs = append(p.errs, fmt.Errorf("%s: %q is not an absolute URL", u.name, u.val))
		}
	}
	for _, tp := range c.TrustedProxies {
		if _, err := netip.ParsePrefix(tp); err != nil {
			if _, err := netip.ParseAddr(tp); err != nil {
				p.errs = append(p.errs, fmt.Errorf("TRUSTED_PROXIES: %q is not an IP address or CIDR", tp))
			}
		}
	}
	if err := errors.Join(p.errs...); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// LogValue renders the configuration for logs with every secret masked.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("addr", c.Addr),
		slog.String("redis_url", maskURL(c.RedisURL)),
		slog.String("gcs_db_path", c.GCSDBPath),
		slog.String("qdrant_url", maskURL(c.QdrantURL)),
		slog.String("qdrant_api_key", mask(c.QdrantAPIKey)),
		slog.String("openai_base_url", maskURL(c.OpenAIBaseURL)),
		slog.String("openai_api_key", mask(c.OpenAIAPIKey)),
		slog.String("openai_model", c.OpenAIModel),
		slog.String("embeddings_model", c.EmbeddingsModel),
		slog.String("admin_token", mask(c.AdminToken)),
		slog.String("webhook_secret", mask(c.WebhookSecret)),
		slog.String("screen_rules", c.ScreenRules),
		slog.String("content_dir", c.ContentDir),
		slog.String("tools_file", c.ToolsFile),
		slog.String("log_level", c.LogLevel.String()),
		slog.Duration("session_ttl", c.SessionTTL),
		slog.Int("max_tool_iterations", c.MaxToolIterations),
		slog.Int("max_context_tokens", c.MaxContextTokens),
		slog.Int("chat_rate_per_minute", c.ChatRatePerMinute),
		slog.Int("session_rate_per_minute", c.SessionRatePerMinute),
		slog.Bool("sql_tools_for_llm", c.SQLToolsForLLM),
		slog.String("allowed_origins", strings.Join(c.AllowedOrigins, ",")),
		slog.String("trusted_proxies", strings.Join(c.TrustedProxies, ",")),
		slog.Duration("shutdown_timeout", c.ShutdownTimeout),
		slog.String("mcp_token", mask(c.MCPToken)),
		slog.Int("mcp_rate_per_minute", c.MCPRatePerMinute),
		slog.String("tool_selection", c.ToolSelection),
		slog.Int("max_tools_per_call", c.MaxToolsPerCall),
		slog.Int("max_tool_calls_per_round", c.MaxToolCallsPerRound),
		slog.Duration("webhook_tolerance", c.WebhookTolerance),
		slog.String("otel_endpoint", maskURL(c.OTelEndpoint)),
		slog.Int("feedback_max", c.FeedbackMax),
	)
}

func mask(s string) string {
	if s == "" {
		return ""
	}
	return "***"
}

func maskURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "***")
	}
	return u.Redacted()
}

type parser struct {
	getenv func(string) string
	errs   []error
}

func (p *parser) str(name, def string) string {
	if v := strings.TrimSpace(p.getenv(name)); v != "" {
		return v
	}
	return def
}

func (p *parser) integer(name string, def, lo, hi int) int {
	v := strings.TrimSpace(p.getenv(name))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.errs = append(p.errs, fmt.Errorf("%s: %q is not a whole number from %d to %d", name, v, lo, hi))
		return def
	}
	return n
}

func (p *parser) duration(name string, def time.Duration) time.Duration {
	v := strings.TrimSpace(p.getenv(name))
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		p.errs = append(p.errs, fmt.Errorf("%s: %q is not a positive duration such as 30s or 24h", name, v))
		return def
	}
	return d
}

func (p *parser) boolean(name string, def bool) bool {
	v := strings.TrimSpace(p.getenv(name))
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		p.errs = append(p.errs, fmt.Errorf("%s: %q is not true or false", name, v))
		return def
	}
	return b
}

func (p *parser) level(name string, def slog.Level) slog.Level {
	v := strings.TrimSpace(p.getenv(name))
	if v == "" {
		return def
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(v)); err != nil {
		p.errs = append(p.errs, fmt.Errorf("%s: %q is not debug, info, warn or error", name, v))
		return def
	}
	return l
}

func (p *parser) oneOf(name, def string, allowed ...string) string {
	v := strings.ToLower(strings.TrimSpace(p.getenv(name)))
	if v == "" {
		return def
	}
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	p.errs = append(p.errs, fmt.Errorf("%s: %q is not one of %s", name, v, strings.Join(allowed, ", ")))
	return def
}

func (p *parser) list(name string) []string {
	var out []string
	for _, s := range strings.Split(p.getenv(name), ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// prices reads "model=input/output,..." (USD per million tokens) over the
// defaults, e.g. "llama3.1=0/0,gpt-4o-mini=0.15/0.6".
func (p *parser) prices(name string) map[string]Price {
	out := DefaultEvalPrices()
	for _, item := range p.list(name) {
		model, pair, ok := strings.Cut(item, "=")
		in, outp, ok2 := strings.Cut(pair, "/")
		model = strings.TrimSpace(model)
		pi, err1 := strconv.ParseFloat(strings.TrimSpace(in), 64)
		po, err2 := strconv.ParseFloat(strings.TrimSpace(outp), 64)
		if !ok || !ok2 || model == "" || err1 != nil || err2 != nil || pi < 0 || po < 0 {
			p.errs = append(p.errs, fmt.Errorf("%s: %q is not model=input/output in US dollars per million tokens, e.g. gpt-4o-mini=0.15/0.60", name, item))
			continue
		}
		out[model] = Price{Input: pi, Output: po}
	}
	return out
}

// firstSet is the first of the variables that is set, trimmed.
func firstSet(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(getenv(n)); v != "" {
			return v
		}
	}
	return ""
}

// orName is the first of the variable names that is set, else the last
// name, so a per-signal variable overrides the general one.
func orName(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if strings.TrimSpace(getenv(n)) != "" {
			return n
		}
	}
	return names[len(names)-1]
}
