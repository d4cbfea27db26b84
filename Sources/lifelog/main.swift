import LifelogCLI

LifelogCommand.main()
