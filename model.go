package cogflow

import (
	"path/filepath"

	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/model"
	"github.com/cogflow/cogflow/runtime/redact"
)

// CacheOptions say how the model answerer uses the answer cache.
type CacheOptions struct {
	// JournalDir holds the cache (JournalDir/cache) unless cogflow.hcl
	// sets cache_dir.
	JournalDir string
	// NoCache neither reads nor writes the cache; Refresh asks the model
	// again and updates it.
	NoCache, Refresh bool
}

// ModelAnswerer builds the model answerer from the configuration: with a
// model configured it asks it (through the answer cache); without one it
// still answers from the cache, and passes everything else on. secrets
// are kept out of prompts and the cache.
func ModelAnswerer(conf *config.Config, co CacheOptions, secrets *redact.Set) (dependency.Answerer, error) {
	return ModelAnswererLimited(conf, co, secrets, nil)
}

// ModelAnswererLimited is ModelAnswerer whose requests wait for lim first:
// one limiter shared by the answerers of all the workers of a batch keeps
// them together under cogflow.hcl's rate_limit. A nil lim does not limit.
func ModelAnswererLimited(conf *config.Config, co CacheOptions, secrets *redact.Set, lim *llm.Limiter) (dependency.Answerer, error) {
	client, err := llm.FromConfig(conf)
	if err != nil {
		return nil, err
	}
	return ModelAnswererWith(conf, co, secrets, llm.Limit(client, lim)), nil
}

// ModelAnswererWith is ModelAnswerer asking client instead of the
// configuration's own: a Temporal worker passes one that makes each chat
// completion an activity. A nil client answers from the cache only.
func ModelAnswererWith(conf *config.Config, co CacheOptions, secrets *redact.Set, client llm.Client) dependency.Answerer {
	l := conf.LLM
	dir := l.CacheDir
	if conf.Source("cache_dir") == "default" {
		dir = filepath.Join(co.JournalDir, "cache")
	}
	cache := model.NewCache(dir)
	cache.NoCache, cache.Refresh, cache.Secrets = co.NoCache, co.Refresh, secrets
	return model.NewLLM(client, model.Options{
		TextModel: l.TextModel, ElementModel: l.ElementModel, Temperature: float32(l.Temperature),
		Cache: cache, Secrets: secrets, CandidateBudget: l.CandidateBudget,
	})
}
