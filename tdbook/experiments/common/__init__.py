"""What several games' experiments share: the training driver and ratings. No game-specific code here."""
