#!/usr/bin/env bash
# Sourced by .ci/precommit.sh and .ci/chromium.sh: installs Debian packages
# for a tool the README names beside its test command.

# retrylint_apt_install WHO PACKAGE...: apt-get install, with sudo unless
# root, quietly; WHO prefixes the messages.
retrylint_apt_install() {
	local who=$1
	shift
	echo "$who: installing $* (apt)" >&2
	local sudo=
	if [[ $(id -u) != 0 ]]; then
		sudo=sudo
	fi
	$sudo apt-get update -qq >&2 &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2 || {
		echo "$who: could not install $*" >&2
		return 1
	}
}
