"""What each button, select and modal of the bot does."""
