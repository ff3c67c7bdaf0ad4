package llm

import "github.com/cogflow/cogflow/runtime/config"

// FromConfig builds the client the configuration names (cogflow.hcl, the
// environment): the endpoint, its key, the time-out of one request and the
// retries. Without a model configured (no API key for OpenAI's own
// endpoint) it returns nil and no error: callers then work without a
// model. Every command that talks to a model builds its client here.
func FromConfig(conf *config.Config) (Client, error) {
	if conf == nil || !conf.LLMConfigured() {
		return nil, nil
	}
	l := conf.LLM
	c, err := NewOpenAI(Config{BaseURL: l.BaseURL, APIKey: l.APIKey, Timeout: l.Timeout, MaxRetries: l.MaxRetries})
	if err != nil {
		return nil, err
	}
	return c, nil
}
