#!/bin/sh
# Fills the module cache with the real retry libraries the libmodel tests
# load: analysistest runs the testdata module with GOPROXY=off.
set -eu
cd "$(dirname "$0")/src/libs"
go mod download
