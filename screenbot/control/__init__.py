"""The screen and the keyboard behind small interfaces (mss and pyautogui, imported lazily)."""
