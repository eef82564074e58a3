module example.com/clean

go 1.26.0
