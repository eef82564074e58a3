module github.com/retrylint/retrylint

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	go.yaml.in/yaml/v3 v3.0.4
	golang.org/x/mod v0.42.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
