module example.com/othermodule

go 1.26

require example.com/retrylib v0.0.0

replace example.com/retrylib => ./retrylib
