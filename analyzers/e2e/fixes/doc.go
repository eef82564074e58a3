// Package fixes holds the end-to-end test of every analyzer's suggested
// fixes: applied by `retrylint -fix` to a module that requires the real
// budget library, they equal the golden files, build and vet clean. It is
// a package of its own so that its test binary runs beside the analyzers'
// other end-to-end tests.
package fixes
