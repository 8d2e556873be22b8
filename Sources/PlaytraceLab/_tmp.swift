// placeholder for resolve
