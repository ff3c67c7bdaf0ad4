module github.com/cogflow/cogflow

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/go-ole/go-ole v1.3.0
	github.com/go-rod/rod v0.116.2
	github.com/hashicorp/hcl/v2 v2.25.0
	github.com/sashabaranov/go-openai v1.43.0
	github.com/zclconf/go-cty v1.20.0
	go.etcd.io/bbolt v1.4.3
	golang.org/x/sys v0.38.0
	golang.org/x/tools v0.38.0
)

require (
	github.com/agext/levenshtein v1.2.1 // indirect
	github.com/apparentlymart/go-textseg/v15 v15.0.0 // indirect
	github.com/apparentlymart/go-textseg/v17 v17.0.1 // indirect
	github.com/mitchellh/go-wordwrap v1.0.1 // indirect
	github.com/ysmood/fetchup v0.2.3 // indirect
	github.com/ysmood/goob v0.4.0 // indirect
	github.com/ysmood/got v0.40.0 // indirect
	github.com/ysmood/gson v0.7.3 // indirect
	github.com/ysmood/leakless v0.9.0 // indirect
	golang.org/x/mod v0.29.0 // indirect
	golang.org/x/sync v0.18.0 // indirect
	golang.org/x/text v0.31.0 // indirect
)
